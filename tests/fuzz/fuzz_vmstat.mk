fuzz_vmstat_SRCS := user/vmstat.c
