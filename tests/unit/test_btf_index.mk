test_btf_index_LIBS := -lbpf -lelf -lz -lpthread
