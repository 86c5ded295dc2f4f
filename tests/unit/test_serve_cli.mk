# parse_serve_args and the --listen parser: serve, the backends, libmicrohttpd
test_serve_cli_LIBS := -lbpf -lelf -lz -lmicrohttpd -lpthread
