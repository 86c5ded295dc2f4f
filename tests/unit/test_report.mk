test_report_SRCS := user/report_common.c user/report_merge.c user/snapshot.c
