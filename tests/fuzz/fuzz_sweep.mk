fuzz_sweep_SRCS := user/pftlog.c user/kv.c user/snapshot.c user/atomic.c
