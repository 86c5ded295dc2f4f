fuzz_kv_SRCS := user/kv.c
