test_snapshot_SRCS := user/snapshot.c user/crc32c.c user/atomic.c
