fuzz_compare_SRCS := user/selfcost.c user/compare.c user/pftlog.c user/kv.c user/stats.c user/snapshot.c user/atomic.c user/report_common.c user/phases_sweep.c user/phases_report.c user/topology.c
