# serve's model and the export writers it renders with: link the collector
# but main.c (wherever the export model lives).
test_serve_SRCS := $(filter-out user/main.c,$(patsubst $(TOP)/%,%,$(sort $(wildcard $(TOP)/user/*.c))))
test_serve_LIBS := -lbpf -lelf -lz -lmicrohttpd -lpthread
