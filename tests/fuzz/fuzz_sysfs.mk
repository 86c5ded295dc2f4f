fuzz_sysfs_SRCS := user/tags.c user/topology.c user/snapshot.c user/crc32c.c user/atomic.c
