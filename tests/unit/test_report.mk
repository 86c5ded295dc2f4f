test_report_SRCS := user/selfcost.c user/report_common.c user/snapshot_merge.c user/snapshot.c user/crc32c.c user/atomic.c
