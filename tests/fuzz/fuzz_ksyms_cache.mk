fuzz_ksyms_cache_LIBS := -lpthread
