# parse_serve_args and the --listen parser live with serve: link the collector but main.c.
test_serve_cli_SRCS := $(filter-out user/main.c,$(patsubst $(TOP)/%,%,$(sort $(wildcard $(TOP)/user/*.c))))
test_serve_cli_LIBS := -lbpf -lelf -lz -lmicrohttpd -lpthread
