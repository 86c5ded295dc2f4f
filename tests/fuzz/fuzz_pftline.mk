fuzz_pftline_SRCS := user/pftlog.c user/kv.c user/snapshot.c user/atomic.c
