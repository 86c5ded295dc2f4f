test_phases_report_SRCS := user/phases_report.c user/snapshot.c user/atomic.c
