test_kfields_SRCS := user/kfields.c user/kfeatures_btf.c user/ksyms.c
test_kfields_LIBS := -lbpf -lelf -lz -lpthread
