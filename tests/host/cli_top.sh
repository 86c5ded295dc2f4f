#!/bin/sh
# The top-level command line (user/cmd/main.c): --version names the build and
# the snapshot format, `help COMMAND` is COMMAND -h, and a wrong command or
# option is one line on stderr with exit 2.  Then every subcommand's
# messages and exit codes (user/cmd/commands.h; faultline(8) EXIT STATUS): a
# usage error is one line "faultline CMD: WHAT (faultline help CMD)" and
# exit 2, without the usage text or getopt's own complaint; a runtime
# failure one line "faultline CMD: ..." and exit 1.  Needs no root and no
# kernel (serve's --listen is refused before it looks for either).
#   tests/host/cli_top.sh [OUTDIR]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host}
FL=$TOP/user/faultline
mkdir -p "$OUT"
[ -x "$FL" ] || fl_skip "build user/faultline first"

v=$("$FL" --version)
fl_check_eq "--version exits 0" $? 0
want=$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)
# the binary may predate the last commit or edit: its name, not HEAD's
case $v in
"faultline "*" (snapshot format 1."*")") fl_pass "--version: '$v'" ;;
*) fl_fail "--version: expected 'faultline NAME (snapshot format 1.N)', got '$v'" ;;
esac
[ "$want" = unknown ] || case $v in
"faultline ${want%-dirty}"*) fl_pass "--version names this tree ($want)" ;;
*) fl_skip_check "--version names this tree" "built from another commit than $want" ;;
esac
fl_check_eq "-V is --version" "$("$FL" -V)" "$v"
for c in record report probe export compare plot tags check serve; do
	"$FL" help "$c" >"$OUT/help-$c.txt" 2>&1
	r=$?
	"$FL" "$c" -h >"$OUT/h-$c.txt" 2>&1
	fl_check_eq "help $c exits as $c -h" $r $?
	fl_check_cmd "help $c prints $c -h" cmp -s "$OUT/help-$c.txt" "$OUT/h-$c.txt"
done
fl_check_cmd "help alone lists the commands" sh -c "'$FL' help | grep -q '^  record '"
"$FL" help nosuch >"$OUT/help-bad.txt" 2>&1
fl_check_eq "help of an unknown command exits 2" $? 2
fl_check_eq "... in one line" "$(wc -l <"$OUT/help-bad.txt")" 1
"$FL" --nosuch >"$OUT/opt-bad.txt" 2>&1
fl_check_eq "an unknown option exits 2" $? 2
fl_check_eq "... in one line" "$(cat "$OUT/opt-bad.txt")" "faultline: unknown option '--nosuch'"

# usage CMD LINE ARGS...: `faultline CMD ARGS` exits 2 with nothing on
# stdout and exactly "faultline CMD: LINE (faultline help CMD)" on stderr
usage() {
	u_cmd=$1 u_want=$2
	shift 2
	"$FL" "$u_cmd" "$@" >"$OUT/u-out.txt" 2>"$OUT/u-err.txt"
	u_rc=$?
	u_what="$u_cmd $*"
	fl_check_eq "'$u_what' exits 2" $u_rc 2
	fl_check_eq "'$u_what' says why in one line" "$(cat "$OUT/u-err.txt")" \
		"faultline $u_cmd: $u_want (faultline help $u_cmd)"
	fl_check_empty "'$u_what' prints nothing on stdout" "$(cat "$OUT/u-out.txt")"
}
# failure CMD LINE ARGS...: exit 1, exactly "faultline CMD: LINE" on stderr
failure() {
	f_cmd=$1 f_want=$2
	shift 2
	"$FL" "$f_cmd" "$@" >"$OUT/f-out.txt" 2>"$OUT/f-err.txt"
	f_rc=$?
	fl_check_eq "'$f_cmd $*' exits 1" $f_rc 1
	fl_check_eq "'$f_cmd $*' says why in one line" "$(cat "$OUT/f-err.txt")" "faultline $f_cmd: $f_want"
}

# unknown options, missing values, values that take none: the parser's words
usage record "unknown option '--bogus'" --bogus
usage record "unknown option '-Z'" -Zq -a
usage record "option '-o' needs a value" -a -o
usage record "option '--output' needs a value" -a --output
usage record "option '--quiet' takes no value" --quiet=1 -a
usage record "unknown backend 'ebpf' (auto, bpf, kmod)" -b ebpf -a
for c in report probe export compare plot tags check serve; do
	usage $c "unknown option '--bogus'" --bogus x y
done
# missing and extra arguments; a bare command that needs one
usage record "nothing to trace: give -- CMD, -p PID or -a"
usage report "missing FILE|DIR"
usage report "unexpected argument 'b'" a b
usage report "option '--by' needs a value" x --by
usage export "missing FILE|DIR"
usage export "unexpected argument 'b'" a b
usage export "unknown format 'yaml' (json, csv, prom, text)" -f yaml x
usage compare "missing A and B"
usage compare "missing B" a
usage compare "unexpected argument 'c'" a b c
usage plot "missing A"
usage plot "unexpected argument 'c'" a b c
usage tags "unexpected argument 'x'" x
usage probe "unexpected argument 'x'" x
usage check "no snapshot file given"
usage serve "unexpected argument 'x'" x
# --listen: refused before anything is attached (no tier notes), as usage
usage serve "--listen 'bogus': expected ADDR:PORT, [V6ADDR]:PORT or :PORT" --listen bogus
usage serve "--listen '::1:80': expected ADDR:PORT, [V6ADDR]:PORT or :PORT" --listen ::1:80
usage serve "--listen '127.0.0.1:70000': expected ADDR:PORT, [V6ADDR]:PORT or :PORT" \
	--listen 127.0.0.1:70000
"$FL" serve --listen no-such-host.invalid:80 >"$OUT/u-out.txt" 2>"$OUT/u-err.txt"
fl_check_eq "serve --listen with a name that does not resolve exits 2" $? 2
fl_check_eq "... in one line" "$(wc -l <"$OUT/u-err.txt")" 1
fl_check_cmd "... naming the value" grep -q "^faultline serve: --listen 'no-such-host.invalid:80': " \
	"$OUT/u-err.txt"

# -h / help: the usage, on stdout, exit 0; never on stderr for a mistake
"$FL" report -h >"$OUT/u-out.txt" 2>"$OUT/u-err.txt"
fl_check_eq "report -h exits 0" $? 0
fl_check_cmd "... the usage on stdout" grep -q "^usage: faultline report" "$OUT/u-out.txt"
fl_check_empty "... nothing on stderr" "$(cat "$OUT/u-err.txt")"

# runtime failures: exit 1, one line, the same for report and check
head -c 300 /dev/zero | tr '\0' x >"$OUT/garbage.snap"
failure report "$OUT/garbage.snap: not a faultline snapshot (bad magic 0x78787878)" "$OUT/garbage.snap"
failure check "$OUT/garbage.snap: not a faultline snapshot (bad magic 0x78787878)" "$OUT/garbage.snap"
failure export "$OUT/garbage.snap: not a faultline snapshot (bad magic 0x78787878)" "$OUT/garbage.snap"
failure report "$OUT/nosuch.snap: No such file or directory" "$OUT/nosuch.snap"
failure check "$OUT/nosuch.snap: No such file or directory" "$OUT/nosuch.snap"

# -o where it cannot be written (export, compare: the one atomic writer):
# one line naming the destination given, never the temp file; none left
SW=$TOP/tests/fixtures/seed-sweeps
failure compare "/proc/x.txt: cannot write: No such file or directory" -o /proc/x.txt \
	"$SW/rome-A" "$SW/rome-B"
fl_check_empty "... no temp file in /proc" "$(ls /proc | grep '^x\.txt')"
failure compare "$OUT/nodir/x.txt: cannot write: No such file or directory" \
	-o "$OUT/nodir/x.txt" "$SW/rome-A" "$SW/rome-B"
rm -f "$OUT"/ok.txt*
"$FL" compare -o "$OUT/ok.txt" "$SW/rome-A" "$SW/rome-B" 2>"$OUT/f-err.txt"
fl_check_eq "compare -o a writable path exits 0" $? 0
fl_check_empty "... no temp file beside it" "$(ls "$OUT" | grep '^ok\.txt\.tmp')"
# export needs a snapshot: a recording of `true`, where one can be made
rm -f "$OUT/true.snap"
if [ "$(id -u)" = 0 ] && [ -r /sys/kernel/btf/vmlinux ] &&
   "$FL" record -q -o "$OUT/true.snap" -- true >/dev/null 2>&1; then
	failure export "/proc/x.prom: cannot write: No such file or directory" \
		-o /proc/x.prom "$OUT/true.snap"
	fl_check_empty "... no temp file in /proc" "$(ls /proc | grep '^x\.prom')"
	failure export "$OUT/nodir/x.prom: cannot write: No such file or directory" \
		-f prom -o "$OUT/nodir/x.prom" "$OUT/true.snap"
else
	fl_skip_check "export -o an unwritable path" "no snapshot: recording needs root and BTF"
fi
fl_done
