test_tgid_filter_LIBS := -lbpf -lelf -lz
