#!/bin/sh
# The top-level command line (user/main.c): --version names the build and
# the snapshot format, `help COMMAND` is COMMAND -h, and a wrong command or
# option is one line on stderr with exit 2.  Needs no root and no kernel.
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
fl_done
