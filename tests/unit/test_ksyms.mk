test_ksyms_SRCS := user/ksyms.c
test_ksyms_LIBS := -lpthread
