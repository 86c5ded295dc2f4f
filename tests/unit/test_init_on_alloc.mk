# user/init_on_alloc.c reads gzip configs (/proc/config.gz)
test_init_on_alloc_LIBS := -lz
