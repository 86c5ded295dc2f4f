test_crc32c_SRCS := user/crc32c.c
