test_kfields_LIBS := -lbpf -lelf -lz -lpthread
