test_blame_SRCS := user/blame_report.c user/snapshot.c user/atomic.c user/report_common.c user/export_out.c user/stats.c user/topology.c user/tags.c user/kv.c user/selfcost.c
