# The parsers live with their commands: link the collector but main.c.
test_cli_SRCS := $(filter-out user/main.c,$(patsubst $(TOP)/%,%,$(sort $(wildcard $(TOP)/user/*.c))))
test_cli_LIBS := -lbpf -lelf -lz -lmicrohttpd -lpthread
