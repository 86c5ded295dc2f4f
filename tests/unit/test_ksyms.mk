test_ksyms_LIBS := -lpthread
