fuzz_kv_SRCS := user/pftlog.c
