test_snapshot_crc_SRCS := user/snapshot.c user/snapshot_merge.c user/selfcost.c user/atomic.c user/crc32c.c
