# The collector's library and the commands above it (perf's util/ and
# builtin-*): user/*.c -- collection, model, output -- is libfaultline.a;
# user/cmd/*.c -- options, usage, each command's own rendering -- are the
# commands, main.c the dispatch.  Every user-space build that compiles or
# links them includes this after mk/common.mk: user/ (the static
# collector), tests/unit, tests/sanitize (ASan+UBSan), tests/fuzz.
#
#   $(eval $(call fl_lib,DIR,CC_VAR,CFLAGS_VAR))
# one flavour, built once into DIR by $(CC_VAR) with $(CFLAGS_VAR) and the
# include paths: DIR/libfaultline.a (user/*.c), DIR/libfaultline-cmd.a
# (user/cmd/*.c but main.c: the commands and their parsers, which the unit
# tests and fuzz_cli call) and DIR/cmd/main.o.  Link in that order:
#   OBJS... DIR/libfaultline-cmd.a DIR/libfaultline.a $(FL_LIB_LIBS) -lm
# A member is pulled in only for a symbol still undefined, so a test may
# stand in for a library function by defining it, where the member holding
# that function is then not needed for anything else.
#
#   $(eval $(call fl_archive,ARCHIVE,OBJDIR,SRCDIR,SRCS,CC_VAR,CFLAGS_VAR))
# the same for any folder: SRCS (files of SRCDIR, relative to TOP) compiled
# into OBJDIR, archived as ARCHIVE (tools/pft's libpft.a for its tests).

AR ?= ar
# the rules here and those of fl_lib / fl_archive leave the including
# Makefile's default goal as it was
fl_lib_goal := $(.DEFAULT_GOAL)
# user/ ahead of the source's own folder: the library's headers are found
# from anywhere.  A static link takes libmicrohttpd.a without its TLS:
# serve_notls.c then stands in for GnuTLS (it is empty in the others).
FL_LIB_CPPFLAGS := -I$(TOP)/user -I$(TOP)/ebpf/.output
ifeq ($(STATIC_LDFLAGS),-static)
FL_LIB_CPPFLAGS += -DFL_MHD_NOTLS
endif
FL_LIB_SRCS := $(sort $(wildcard $(TOP)/user/*.c))
FL_CMD_SRCS := $(filter-out $(TOP)/user/cmd/main.c,$(sort $(wildcard $(TOP)/user/cmd/*.c)))
# What libfaultline.a links against: libbpf (the bpf backend, BTF),
# libmicrohttpd (serve).
FL_LIB_LIBS := -lbpf -lelf -lz -lmicrohttpd -lpthread

# The BPF skeletons the library embeds: ebpf/'s make decides whether one is
# stale (user/ sets FL_SKEL_FORCE := FORCE to ask it every time; the test
# builds only build missing ones).  The first compile waits for them
# (order-only); afterwards the .d files name the ones each object includes.
FL_SKEL := $(patsubst $(TOP)/ebpf/%.bpf.c,$(TOP)/ebpf/.output/%.skel.h,$(wildcard $(TOP)/ebpf/*.bpf.c))
$(FL_SKEL) &: $(FL_SKEL_FORCE)
	$(Q)$(MAKE) --no-print-directory -C $(TOP)/ebpf TOP=$(abspath $(TOP))

# $(1) archive, $(2) object folder, $(3) source folder, $(4) sources (whole
# paths), $(5) compiler variable, $(6) flags variable (read when each object
# is compiled, so that a target-specific addition applies)
define fl_archive
fl_lib_goal := $$(.DEFAULT_GOAL)
$(2)/%.o: $(TOP)/$(3)/%.c $(TOP)/mk/lib.mk $(TOP)/mk/common.mk | $(FL_SKEL)
	$$(call msg,CC,$$(patsubst $(abspath $(TOP))/%,%,$$(abspath $$@)))
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$($(5)) $$($(6)) $(FL_LIB_CPPFLAGS) -I$(TOP)/$(3) -MMD -MP -c $$< -o $$@
$(1): $(patsubst $(TOP)/$(3)/%.c,$(2)/%.o,$(4))
	$$(call msg,AR,$$(patsubst $(abspath $(TOP))/%,%,$$(abspath $$@)))
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^
-include $$(wildcard $(2)/*.d)
.DEFAULT_GOAL := $$(fl_lib_goal)
endef

define fl_lib
$(call fl_archive,$(1)/libfaultline.a,$(1),user,$(FL_LIB_SRCS),$(2),$(3))
$(call fl_archive,$(1)/libfaultline-cmd.a,$(1)/cmd,user/cmd,$(FL_CMD_SRCS),$(2),$(3))
.DEFAULT_GOAL := $$(fl_lib_goal)
endef

.DEFAULT_GOAL := $(fl_lib_goal)
