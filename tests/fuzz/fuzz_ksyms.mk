fuzz_ksyms_LIBS := -lpthread
