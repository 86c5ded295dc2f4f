fuzz_sysfs_SRCS := user/tags.c user/topology.c user/snapshot.c user/atomic.c
