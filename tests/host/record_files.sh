#!/bin/sh
# record on this machine (any tier): a CMD that cannot be run is refused
# before anything is attached, with one line, exit 127 and no file; a
# second recording to the same -o keeps the first as NAME.old (perf's
# perf.data.old) instead of overwriting it.
#   tests/host/record_files.sh [OUTDIR]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host}
FL=$TOP/user/faultline
mkdir -p "$OUT"
[ "$(id -u)" = 0 ] || fl_skip "needs root"
[ -r /sys/kernel/btf/vmlinux ] || fl_skip "no kernel BTF"
[ -x "$FL" ] || fl_skip "build user/faultline first"
rm -f "$OUT"/rf.snap*

for cmd in /nonexistent/cmd no-such-command-faultline; do
	"$FL" record -o "$OUT/rf.snap" -- "$cmd" >"$OUT/rf-out.txt" 2>"$OUT/rf-err.txt"
	fl_check_eq "record -- $cmd exits 127" $? 127
	fl_check_eq "... one line on stderr" "$(wc -l <"$OUT/rf-err.txt")" 1
	fl_check_eq "... saying why" "$(cat "$OUT/rf-err.txt")" \
		"faultline record: cannot run '$cmd': No such file or directory"
	fl_check_empty "... nothing on stdout" "$(cat "$OUT/rf-out.txt")"
	fl_check_empty "... no snapshot, no temp file" "$(ls "$OUT" | grep '^rf\.snap')"
done
: >"$OUT/rf-noexec"
chmod 644 "$OUT/rf-noexec"
"$FL" record -o "$OUT/rf.snap" -- "$OUT/rf-noexec" 2>"$OUT/rf-err.txt"
fl_check_eq "record -- a file without x exits 127" $? 127
fl_check_cmd "... Permission denied" grep -q "cannot run '$OUT/rf-noexec': Permission denied" "$OUT/rf-err.txt"

"$FL" record -q -o "$OUT/rf.snap" -- true 2>"$OUT/rf-err1.txt"
fl_check_eq "a first recording" $? 0
cp "$OUT/rf.snap" "$OUT/rf-first.snap"
"$FL" record -q -o "$OUT/rf.snap" -- true 2>"$OUT/rf-err2.txt"
fl_check_eq "a second one to the same -o" $? 0
fl_check_cmd "... the first is kept as rf.snap.old" cmp "$OUT/rf.snap.old" "$OUT/rf-first.snap"
fl_check_cmd "... and rf.snap is the second" sh -c "! cmp -s '$OUT/rf.snap' '$OUT/rf-first.snap'"
fl_check_cmd "... which reads" sh -c "\"$FL\" report --raw \"$OUT/rf.snap\" >/dev/null"
fl_done
