test_kmod_backend_SRCS := user/backend_kmod.c user/snapshot.c user/crc32c.c user/atomic.c
