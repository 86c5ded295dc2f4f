#!/bin/sh
# make remakes what depends on a file that changed, and leaves the rest
# (issue 29).  Touches, one at a time: a BPF program (ebpf/phases.bpf.c),
# the header the three programs share (ebpf/common.bpf.h), a user-space
# header read by user/ and tools/pft alike (user/errbuf.h), one read
# through another header (user/pftlog.h, via compare.h), the ABI header of
# BPF and user space (include/faultline/abi.h) and a generated skeleton
# (ebpf/.output/phases.skel.h, what user/phases.c compiles against); after
# each it asks `make -n bpf user tools` what would be remade: the objects,
# skeletons and archives that include the file must be listed, one that
# does not include it must not.  `make -n` regenerates no skeleton, so the
# chain .bpf.c -> skeleton -> collector is checked as its two links (the
# .bpf.c cases and the skeleton case).  Nothing is rebuilt: each file gets
# its mtime back (touch -r) before the next is touched, and the last check
# is that make then wants what it wanted before.  Under -n make always
# lists user/.obj/cmd/main.o and user/faultline (the version stamp
# .obj/version is remade at every make, rewritten only when git's
# description changes), so the archive user/.obj/libfaultline.a is what
# shows that the collector would be relinked.  Builds the tree first where
# it is not built (bpf, user, tools).
#   tests/host/make_deps.sh [OUTDIR]
# It changes mtimes in the working tree the test boxes copy from: run-all
# runs it before them, not beside them.
# serial: yes
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host/make_deps}
rm -rf "$OUT"
mkdir -p "$OUT/mtime"
cd "$TOP" || exit 1
# the make that started run-all may pass -s (no "  CC file" lines), -n, -j
unset MAKEFLAGS MFLAGS MAKELEVEL
command -v clang >/dev/null && command -v bpftool >/dev/null || fl_skip "no clang or bpftool"
if ! make -s bpf user tools >"$OUT/build.log" 2>&1; then
	fl_fail "the tree builds (make bpf user tools, $OUT/build.log)"
	fl_done
fi

# What `make -n` would remake, one name a line: its "  CC file" lines.
remade() {
	make -n V=0 bpf user tools 2>>"$OUT/make-n.err" |
		awk -F'"' '/^printf .*%-8s/ { print $4 }' | sort -u
}

# CASE FILE: touch FILE, what make would remake into $OUT/CASE, FILE's
# mtime back (also if the test is stopped meanwhile).
SAVED=
restore() {
	[ -n "$SAVED" ] && touch -r "$OUT/mtime/ref" "$SAVED"
	SAVED=
}
trap restore EXIT
trap 'restore; exit 130' INT TERM
touched() {
	if ! touch -r "$2" "$OUT/mtime/ref"; then
		fl_fail "$1: $2 exists"
		: >"$OUT/$1"
		return
	fi
	SAVED=$2
	touch "$2"
	remade >"$OUT/$1"
	restore
	fl_invariant "$1: $2 has its mtime back" "$(stat -c %y "$2")" \
		"$(stat -c %y "$OUT/mtime/ref")"
}
# CASE yes|no NAME...: each NAME in what make would remake (yes) or not (no)
listed() {
	c=$1 want=$2
	shift 2
	for t; do
		if grep -qxF "$t" "$OUT/$c"; then got=yes; else got=no; fi
		if [ "$want" = yes ]; then what="remakes $t"; else what="leaves $t"; fi
		if [ "$got" = "$want" ]; then fl_pass "$c: $what"
		else fl_fail "$c: $what: in make -n's list: $got ($OUT/$c)"; fi
	done
}
remakes() { c=$1; shift; listed "$c" yes "$@"; }
spares() { c=$1; shift; listed "$c" no "$@"; }

E=ebpf/.output U=user/.obj
remade >"$OUT/before"
remakes before user/faultline
spares before $U/libfaultline.a $E/faultline.skel.h tools/pft/pft

touched bpf_c ebpf/phases.bpf.c
remakes bpf_c $E/phases.bpf.o $E/phases.skel.h
spares bpf_c $E/blame.bpf.o $E/faultline.bpf.o

touched bpf_h ebpf/common.bpf.h
for p in faultline phases blame; do
	remakes bpf_h $E/$p.bpf.o $E/$p.skel.h
done
spares bpf_h $U/crc32c.o tools/pft/run.o

touched errbuf_h user/errbuf.h
remakes errbuf_h $U/pftlog.o $U/cmd/cmd_record.o $U/libfaultline.a tools/pft/options.o \
	tools/pft/pft
spares errbuf_h tools/pft/clock.o $E/faultline.bpf.o

touched pftlog_h user/pftlog.h
remakes pftlog_h $U/pftlog.o $U/compare.o $U/cmd/cmd_plot.o $U/libfaultline.a
spares pftlog_h $U/crc32c.o $U/wislog.o

touched abi_h include/faultline/abi.h
remakes abi_h $E/faultline.bpf.o $E/faultline.skel.h $E/phases.bpf.o $E/blame.bpf.o \
	$U/snapshot.o $U/backend_bpf.o $U/libfaultline.a
spares abi_h $U/crc32c.o tools/pft/run.o

touched skel $E/phases.skel.h
remakes skel $U/phases.o $U/libfaultline.a
spares skel $U/backend_bpf.o $E/phases.bpf.o

remade >"$OUT/after"
fl_invariant "make -n wants what it wanted before" "$(tr "\n" " " <"$OUT/after")" \
	"$(tr "\n" " " <"$OUT/before")"
fl_done
