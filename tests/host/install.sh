#!/bin/sh
# make install into a scratch DESTDIR: the collector, pft, pft-sweep, the
# mmtests monitor and hooks, the systemd unit and the man page (faultline(8), from Documentation/
# faultline.8.rst by rst2man), and a man page that names no page we do
# not install.
#   tests/host/install.sh [OUTDIR]
# It builds in the working tree the test boxes copy from: run-all runs it
# before them, not beside them.
# serial: yes
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host}
D=$OUT/destdir
mkdir -p "$OUT"
rm -rf "$D"
command -v rst2man >/dev/null || fl_fail "rst2man not installed (python3-docutils: make deps)"
make -s -C "$TOP" install DESTDIR="$D" PREFIX=/usr/local >"$OUT/install.log" 2>&1
fl_check_eq "make install DESTDIR=... exit status" $? 0
for f in bin/faultline bin/pft bin/pft-sweep; do
	fl_check_cmd "installed: $f (executable)" test -x "$D/usr/local/$f"
done
fl_check_cmd "installed: the mmtests monitor (executable)" \
	test -x "$D/usr/local/share/faultline/mmtests/watch-faultline.sh"
fl_check_cmd "installed: the mmtests hooks" test -s "$D/usr/local/share/faultline/mmtests/faultline-hooks.sh"
fl_check_cmd "installed: the systemd unit" test -s "$D/usr/local/lib/systemd/system/faultline-serve.service"
M=$D/usr/local/share/man/man8/faultline.8
fl_check_cmd "installed: the man page" test -s "$M"
fl_check_cmd "the man page is roff with its title" grep -q '^\.TH "\{0,1\}FAULTLINE' "$M"
fl_check_cmd "the man page has SEE ALSO" grep -q 'SEE ALSO' "$M"
fl_check_eq "SEE ALSO names no pft(1) (none is installed)" "$(grep -c 'pft.\{0,4\}(1)' "$M")" 0
fl_check_empty "no temporary file left" "$(find "$D" -name '*.tmp')"
"$D/usr/local/bin/faultline" --version >"$OUT/install-version.txt" 2>&1
fl_check_eq "the installed faultline runs (--version)" $? 0
rm -rf "$D"
fl_done
