# faultline: the one entry point.  `make help` lists the targets.
TOP := $(CURDIR)
include mk/common.mk

PREFIX ?= /usr/local
DESTDIR ?=
FL_CACHE ?= /var/cache/faultline
# Kernel headers for the module: the running kernel's if present, else the
# test box's 6.12 headers (resolved by tools/setup-deps).
TESTBOX_KREL := $(shell cat $(FL_CACHE)/kernels/6.12/release 2>/dev/null)
ifeq ($(origin KDIR),undefined)
KDIR := $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	$(if $(TESTBOX_KREL),/usr/src/linux-headers-$(TESTBOX_KREL)))
endif

.PHONY: check-mmtests all module bpf user tools check check-seed unit integration demo bench perf fuzz \
	install deb clean deps help

all: module bpf user tools

help:
	@echo "targets: all module bpf user tools check check-seed demo bench perf fuzz install deb clean deps"
	@echo "vars:    KDIR=<kernel headers> V=1 PREFIX=/usr/local DESTDIR= SANITIZE=1"

deps:
	tools/setup-deps

# Headers in a build root ($(FL_CACHE)/roots/*, e.g. 7.3's: their kbuild
# tools do not run on this machine) build in that root: tools/build-module,
# whose .ko is build/kmod/<release>/module/faultline.ko.
FL_ROOT_KREL = $(patsubst linux-headers-%,%,$(notdir $(filter $(FL_CACHE)/roots/%,$(abspath $(KDIR)))))
# A kernel directory of tools/testbox/build-kernel (KDIR=DIR or DIR/build)
# builds with tools/build-module too: in the root it was built in, if any.
FL_BK_DIR = $(firstword $(foreach d,$(abspath $(KDIR)) $(abspath $(KDIR)/..),\
	$(if $(wildcard $(d)/release),$(if $(wildcard $(d)/build/Makefile),$(d)))))
module:
	@test -n "$(KDIR)" -a -d "$(KDIR)" || { echo "make module: no kernel headers (KDIR='$(KDIR)'); run 'make deps' or pass KDIR=" >&2; exit 1; }
ifneq ($(FL_BK_DIR),)
	@echo "make module: $(KDIR) is a build-kernel directory: tools/build-module $(FL_BK_DIR)"
	$(Q)tools/build-module $(FL_BK_DIR) $(if $(filter 1,$(V)),V=1)
else ifneq ($(FL_ROOT_KREL),)
	@echo "make module: $(KDIR) is in a build root: tools/build-module $(FL_ROOT_KREL)"
	$(Q)tools/build-module $(FL_ROOT_KREL) $(if $(filter 1,$(V)),V=1)
else
	$(Q)$(MAKE) -C $(KDIR) M=$(TOP) $(if $(filter 1,$(V)),V=1) modules
endif

bpf:
	$(Q)$(MAKE) --no-print-directory -C ebpf TOP=$(TOP)

user: bpf
	$(Q)$(MAKE) --no-print-directory -C user TOP=$(TOP)

tools:
	$(Q)$(MAKE) --no-print-directory -C tools/pft TOP=$(TOP)

# check/demo install what they need first (no-op when everything is there).
check:
	@tools/setup-deps --check || tools/setup-deps
	$(Q)$(MAKE) --no-print-directory bpf user tools
	tests/run-all

# faultline's mmtests monitor inside mmtests' own code: needs an mmtests
# checkout and a will-it-scale build (FL_MMTESTS, FL_WIS), so not in check
check-mmtests: user tools
	tests/mmtests/real.sh

# The seed's A/B on kernels built here from SEED_A_SRC / SEED_B_SRC (not
# part of check: the two builds take most of an hour; then they are cached)
check-seed:
	@tools/setup-deps --check || tools/setup-deps
	$(Q)$(MAKE) --no-print-directory bpf user tools
	$(Q)$(MAKE) --no-print-directory -C tests/helpers TOP=$(CURDIR)
	tests/check-seed

unit: bpf
	$(Q)$(MAKE) --no-print-directory -C tests/unit TOP=$(TOP) run

demo:
	@tools/setup-deps --check || tools/setup-deps
	$(Q)$(MAKE) --no-print-directory bpf user tools
	tools/demo

# perf with BPF skeletons (perf lock contention -b) for the bench peers;
# bench runs without it (the peer is then reported unavailable)
perf:
	tools/build-perf

bench:
	@tools/setup-deps --check || tools/setup-deps
	$(Q)$(MAKE) --no-print-directory bpf user tools
	@tools/build-perf >/dev/null || echo "bench: perf lock contention peer unavailable (tools/build-perf failed)"
	tools/bench

fuzz:
	$(Q)$(MAKE) --no-print-directory -C tests/fuzz TOP=$(TOP) run

install: user tools
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/faultline
	install -m 0755 user/faultline $(DESTDIR)$(PREFIX)/bin/faultline
	install -m 0755 tools/pft/pft $(DESTDIR)$(PREFIX)/bin/pft
	install -m 0755 tools/pft-sweep $(DESTDIR)$(PREFIX)/bin/pft-sweep
	@# mmtests' monitor and hooks (Documentation/mmtests.rst), to copy into a checkout
	install -d $(DESTDIR)$(PREFIX)/share/faultline/mmtests
	install -m 0755 tools/mmtests/watch-faultline.sh $(DESTDIR)$(PREFIX)/share/faultline/mmtests/
	install -m 0644 tools/mmtests/faultline-hooks.sh $(DESTDIR)$(PREFIX)/share/faultline/mmtests/
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/system
	sed 's|@BINDIR@|$(PREFIX)/bin|' tools/faultline-serve.service \
		>$(DESTDIR)$(PREFIX)/lib/systemd/system/faultline-serve.service
	@if [ -f module/faultline.ko ]; then \
		install -m 0644 module/faultline.ko $(DESTDIR)$(PREFIX)/share/faultline/; fi
	@# the man page, from its reStructuredText (rst2man: python3-docutils, make deps)
	@command -v rst2man >/dev/null || { echo "make install: rst2man not found (python3-docutils; make deps)" >&2; exit 1; }
	install -d $(DESTDIR)$(PREFIX)/share/man/man8
	rst2man Documentation/faultline.8.rst >$(DESTDIR)$(PREFIX)/share/man/man8/faultline.8.tmp
	mv $(DESTDIR)$(PREFIX)/share/man/man8/faultline.8.tmp $(DESTDIR)$(PREFIX)/share/man/man8/faultline.8

# the Debian packages, faultline and faultline-dkms (debian/), built in a
# copy of the tree: build/deb/*.deb (tools/build-deb)
deb:
	$(Q)tools/build-deb

clean:
	-$(Q)$(MAKE) --no-print-directory -C ebpf TOP=$(TOP) clean
	-$(Q)$(MAKE) --no-print-directory -C user TOP=$(TOP) clean
	-$(Q)$(MAKE) --no-print-directory -C tools/pft TOP=$(TOP) clean
	-$(Q)$(MAKE) --no-print-directory -C tests/unit TOP=$(TOP) clean
	-$(Q)if [ -n "$(KDIR)" ] && [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(TOP) clean >/dev/null; fi
	rm -rf build out
