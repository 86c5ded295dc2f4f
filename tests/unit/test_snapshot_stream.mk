test_snapshot_stream_SRCS := user/snapshot.c user/crc32c.c user/atomic.c
