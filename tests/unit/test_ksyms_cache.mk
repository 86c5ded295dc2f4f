test_ksyms_cache_LIBS := -lpthread
