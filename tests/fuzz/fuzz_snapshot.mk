fuzz_snapshot_SRCS := user/snapshot.c user/atomic.c
