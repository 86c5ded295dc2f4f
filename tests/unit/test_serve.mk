test_serve_SRCS := user/serve_metrics.c user/selfcost.c user/cmd_export.c user/export_prom.c user/export_out.c user/report_common.c user/snapshot.c user/topology.c user/pftlog.c user/stats.c
