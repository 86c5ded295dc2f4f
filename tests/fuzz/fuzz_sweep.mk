fuzz_sweep_SRCS := user/pftlog.c user/snapshot.c user/atomic.c
