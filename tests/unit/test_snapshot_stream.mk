test_snapshot_stream_SRCS := user/snapshot.c user/atomic.c
