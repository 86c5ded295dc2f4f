test_classify_LIBS := -lbpf -lelf -lz
