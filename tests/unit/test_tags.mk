test_tags_SRCS := user/tags.c user/topology.c user/snapshot.c user/crc32c.c user/atomic.c user/pftlog.c user/kv.c
