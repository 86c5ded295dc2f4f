test_plot_SRCS := user/selfcost.c user/cmd_plot.c user/compare.c user/pftlog.c user/kv.c user/stats.c user/snapshot.c user/export_out.c user/report_common.c user/phases_report.c user/topology.c
