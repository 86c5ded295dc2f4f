test_phases_report_SRCS := user/phases_report.c user/snapshot.c user/crc32c.c user/atomic.c
