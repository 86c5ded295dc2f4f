# serve pulls in the backends and libmicrohttpd
test_serve_LIBS := -lbpf -lelf -lz -lmicrohttpd -lpthread
