test_invariants_SRCS := user/invariants.c user/snapshot.c user/atomic.c
