test_compare_SRCS := user/cmd_compare.c user/compare.c user/pftlog.c user/stats.c user/snapshot.c user/export_out.c user/report_common.c user/phases_report.c user/topology.c user/phases_sweep.c
