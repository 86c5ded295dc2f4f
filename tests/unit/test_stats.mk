test_stats_SRCS := user/stats.c
