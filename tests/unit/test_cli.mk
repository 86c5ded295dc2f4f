# the parsers pull every command in, the backends with them
test_cli_LIBS := -lbpf -lelf -lz -lmicrohttpd -lpthread
