# Shared settings for every user-space Makefile (user/, tools/pft, tests/).
# Include after setting TOP (the repository root, relative or absolute).

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif
# make -s: no "  CC file" lines either (the short options are MAKEFLAGS'
# first word; sub-makes inherit it)
ifneq ($(findstring s,$(filter-out --%,$(firstword -$(MAKEFLAGS)))),)
msg = @true;
endif

CC ?= cc
CLANG ?= clang
BPFTOOL ?= bpftool
CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Werror -std=gnu11 -I$(TOP)/include
# Static binaries: they run unchanged inside the test box's initramfs.
STATIC_LDFLAGS = -static
# SANITIZE=1 builds user space with ASan+UBSan (dynamic: sanitizers need it).
ifeq ($(SANITIZE),1)
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
STATIC_LDFLAGS =
endif
