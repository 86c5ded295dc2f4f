fuzz_ksyms_SRCS := user/ksyms.c
fuzz_ksyms_LIBS := -lpthread
