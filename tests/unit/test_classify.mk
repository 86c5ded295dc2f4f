test_classify_SRCS := user/kfeatures.c user/kfeatures_btf.c
test_classify_LIBS := -lbpf -lelf -lz
