# The subcommands' parsers live with their commands: link the collector
# (everything but main.c) and what it links against.
fuzz_cli_SRCS := $(filter-out user/main.c,$(patsubst $(TOP)/%,%,$(sort $(wildcard $(TOP)/user/*.c))))
fuzz_cli_CFLAGS := -I$(TOP)/ebpf/.output
fuzz_cli_LIBS := -lbpf -lelf -lz -lmicrohttpd -lpthread
fuzz_cli: $(TOP)/ebpf/.output/faultline.skel.h
$(TOP)/ebpf/.output/faultline.skel.h:
	$(Q)$(MAKE) --no-print-directory -C $(TOP)/ebpf TOP=$(abspath $(TOP))
