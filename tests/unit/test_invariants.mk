test_invariants_SRCS := user/invariants.c user/snapshot.c user/crc32c.c user/atomic.c
