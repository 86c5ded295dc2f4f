fuzz_sweep_SRCS := user/pftlog.c user/kv.c user/snapshot.c user/crc32c.c user/atomic.c
