# the parsers pull every command in, the backends with them
fuzz_cli_LIBS := -lbpf -lelf -lz -lmicrohttpd -lpthread
