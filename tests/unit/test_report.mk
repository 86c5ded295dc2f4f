test_report_SRCS := user/selfcost.c user/report_common.c user/report_merge.c user/snapshot.c
