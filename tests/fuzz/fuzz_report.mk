fuzz_report_SRCS := user/selfcost.c user/snapshot.c user/atomic.c user/report_common.c user/snapshot_merge.c user/phases_report.c user/invariants.c user/blame_report.c user/export_out.c user/stats.c
