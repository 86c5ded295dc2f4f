#!/bin/sh
# compare of recordings made on this machine (issue 27): three recordings of
# pft a side, given as two directories and as -a/-b lists.  Each side's
# COUNT of faults_user is its number of recordings, and its MIN, MAX and
# MEAN are those of the counts `export` reads from each recording; the two
# spellings give the same figures; one kernel on both sides, so the labels
# are the directories; one recording a side gives each recording's own
# count; a directory of snapshots against a snapshot is refused in one line.
#   tests/host/compare_recordings.sh [OUTDIR]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host}
FL=$TOP/user/faultline
PFT=$TOP/tools/pft/pft
[ "$(id -u)" = 0 ] || fl_skip "needs root"
[ -r /sys/kernel/btf/vmlinux ] || fl_skip "no kernel BTF"
[ -x "$FL" ] || fl_skip "build user/faultline first"
[ -x "$PFT" ] || fl_skip "build tools/pft first (make tools)"
A=$OUT/cmpA B=$OUT/cmpB
rm -rf "$A" "$B"
mkdir -p "$A" "$B"

for i in 1 2 3; do
	"$FL" record -q -o "$A/r$i.snap" -- "$PFT" -m 16M -t 2 >/dev/null 2>>"$OUT/cmp-rec.err" ||
		fl_skip "record refused here: $(tail -1 "$OUT/cmp-rec.err")"
	"$FL" record -q -o "$B/r$i.snap" -- "$PFT" -m 16M -t 2 -c 4 >/dev/null 2>>"$OUT/cmp-rec.err" ||
		fl_skip "record refused here: $(tail -1 "$OUT/cmp-rec.err")"
done

# faults_user of one recording, as export reads it
user_faults() {
	"$FL" export --format csv --by total "$1" | awk -F, '$5 == "faults_user" { print $9; exit }'
}
# "min max mean" of the side's recordings, worked out here
side_stats() {
	for f in "$1"/r1.snap "$1"/r2.snap "$1"/r3.snap; do user_faults "$f"; done |
		awk 'NR == 1 { lo = hi = $1 } { s += $1; if ($1 < lo) lo = $1; if ($1 > hi) hi = $1 }
		     END { printf "%d %d %.6f\n", lo, hi, s / NR }'
}

"$FL" compare -f json -o "$OUT/cmp.json" "$A" "$B"
fl_check_eq "compare DIR_A DIR_B exits 0" $? 0
"$FL" compare -f csv "$A" "$B" >"$OUT/cmp-dirs.csv"
fl_check_eq "compare -f csv DIR_A DIR_B exits 0" $? 0
# section,name,unit,a,b,pct,p_value,...,n_a,n_b (columns 15, 16)
row=$(grep '^faults,faults_user,' "$OUT/cmp-dirs.csv")
fl_check_eq "faults_user: 3 recordings on A" "$(echo "$row" | cut -d, -f15)" 3
fl_check_eq "faults_user: 3 recordings on B" "$(echo "$row" | cut -d, -f16)" 3
for s in A B; do
	dir=$A col=4 key=a
	[ $s = B ] && dir=$B col=5 key=b
	set -- $(side_stats "$dir")
	fl_check_within "faults_user mean of $s = the mean of export's counts" \
		"$(echo "$row" | cut -d, -f$col)" "$3" 0.000001
	# the faults_user figure alone: from its name to its Welch p
	json=$(tr -d '\n' <"$OUT/cmp.json" | sed 's/.*"name":"faults_user",//; s/"welch_p".*//')
	fl_check_cmd "faults_user min of $s in the json is export's smallest" \
		sh -c "echo '$json' | grep -q '\"$key\":{\"count\":3,\"min\":$1,\"max\":$2,'"
done

# the same recordings listed after -a/-b: the same figures
"$FL" compare -f csv -a "$A"/r1.snap "$A"/r2.snap "$A"/r3.snap -b "$B" >"$OUT/cmp-lists.csv"
fl_check_eq "compare -a FILES -b DIR exits 0" $? 0
fl_check_eq "the figures of -a/-b are those of the directories" \
	"$(grep -v '^recording,\|^note,' "$OUT/cmp-lists.csv" | md5sum)" \
	"$(grep -v '^recording,\|^note,' "$OUT/cmp-dirs.csv" | md5sum)"

# one kernel on both sides: the labels name the directories
"$FL" compare "$A" "$B" >"$OUT/cmp.txt"
fl_check_cmd "label (A) is the release with cmpA" grep -q "^  (A) $(uname -r) (cmpA): 3 recordings in " "$OUT/cmp.txt"
fl_check_cmd "label (B) is the release with cmpB" grep -q "^  (B) $(uname -r) (cmpB): 3 recordings in " "$OUT/cmp.txt"

# one recording a side: its own count, exactly
"$FL" compare -f csv "$A/r2.snap" "$B/r3.snap" >"$OUT/cmp-one.csv"
fl_check_eq "compare A.snap B.snap exits 0" $? 0
row=$(grep '^faults,faults_user,' "$OUT/cmp-one.csv")
fl_check_eq "faults_user (A) is the recording's" "$(echo "$row" | cut -d, -f4)" "$(user_faults "$A/r2.snap")"
fl_check_eq "faults_user (B) is the recording's" "$(echo "$row" | cut -d, -f5)" "$(user_faults "$B/r3.snap")"

# a directory of snapshots against one snapshot: refused, one line, no output file
rm -f "$OUT/cmp-bad.txt"
"$FL" compare -o "$OUT/cmp-bad.txt" "$A" "$B/r1.snap" 2>"$OUT/cmp-bad.err"
fl_check_eq "DIR against FILE exits 1" $? 1
fl_check_eq "... one line on stderr" "$(wc -l <"$OUT/cmp-bad.err")" 1
fl_check_cmd "... no output written" sh -c "! test -e '$OUT/cmp-bad.txt'"
fl_done
