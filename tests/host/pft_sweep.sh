#!/bin/bash
# pft-sweep on the machine itself (bash; not the test box, which has only
# busybox sh).  Needs tools/pft/pft built.  Checks: the series via pft
# --series for 112/128/256 CPUs; a 2-iteration sweep over 1..2 clients writes
# exactly sweep.conf, tags, pft-1.log, pft-2.log with one classic line per
# iteration and the PFT_* values used; bad settings exit 2 with one line and
# write nothing; an existing result directory is refused; with a stub
# collector (FAULTLINE_RECORD) every iteration runs under it with its
# snapshot path; a failing run stops the sweep and leaves no partial log.
# Nothing half-written (issue 28): a sweep that fails at its second client
# count, or is stopped by SIGTERM, leaves only sweep.conf (unfinished), tags,
# the complete pft-1.log (and its snapshots), sweep.err when pft said
# something: no .out.PID, no *.tmp, no snapshot of the failed count, no
# run left behind; re-running into that directory with the same settings
# resumes it (pft-1.log kept byte for byte, what a SIGKILLed sweep left
# removed, SWEEP_RESUMED), with other settings is refused, touching nothing.
# --wis (will-it-scale): the task series equals mmtests' topology walk; a
# stand-in test printing a real run's output is kept from "measurement" on
# (wis-bench's sed '1,8d'), a failure keeps the complete runs and resumes,
# compare reads the result; bad WIS_* settings exit 2, one line, nothing.
#   tests/host/pft_sweep.sh [OUTDIR]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host/pft_sweep}
PFT=$TOP/tools/pft/pft
SWEEP=$TOP/tools/pft-sweep
[ -x "$PFT" ] || fl_skip "build tools/pft/pft first (make tools)"
rm -rf "$OUT"
mkdir -p "$OUT"

fl_check_eq "series 112" "$("$PFT" --series 1 112 112)" "1 4 7 12 21 30 48 79 110 112"
fl_check_eq "series 128" "$("$PFT" --series 1 128 128)" "1 4 7 12 21 30 48 79 110 128"
fl_check_eq "series 256" "$("$PFT" --series 1 256 256)" "1 4 7 12 21 30 48 79 110 141 172 203 234 256"

# a small real sweep
R=$OUT/r1
PFT_ITERATIONS=2 PFT_MAPPING_SIZE=8m PFT_MIN_CLIENTS=1 PFT_MAX_CLIENTS=2 \
	"$SWEEP" -o "$R" >"$OUT/r1.stdout" 2>"$OUT/r1.stderr"
fl_check_eq "sweep exit status" "$?" 0
fl_check_eq "sweep prints the results dir" "$(cat "$OUT/r1.stdout")" "$R"
fl_check_eq "results files" "$(cd "$R" && ls | tr '\n' ' ')" "pft-1.log pft-2.log sweep.conf tags "
for n in 1 2; do
	fl_check_eq "pft-$n.log lines" "$(wc -l <"$R/pft-$n.log")" 2
	fl_check_eq "pft-$n.log classic lines with Thr=$n" \
		"$(awk -v n=$n 'NF == 8 && $2 == n && $4 ~ /s$/' "$R/pft-$n.log" | wc -l)" 2
done
for kv in PFT_ITERATIONS=2 PFT_MAPPING_SIZE=8m PFT_MIN_CLIENTS=1 PFT_MAX_CLIENTS=2 \
	PFT_USE_PROCESSES=no PFT_PAGESIZES=base SWEEP_CLIENTS=1,2; do
	fl_check_cmd "sweep.conf has $kv" grep -qx "$kv" "$R/sweep.conf"
done
fl_check_cmd "sweep.conf finished" grep -q '^SWEEP_FINISHED=' "$R/sweep.conf"
fl_check_cmd "tags kernel_version" grep -qx "kernel_version=$(uname -r)" "$R/tags"
fl_check_cmd "tags machine_total_logical_cores" grep -q '^machine_total_logical_cores=[0-9]' "$R/tags"

# refused: existing results, bad settings (exit 2, one line, nothing written)
"$SWEEP" -o "$R" 2>/dev/null
fl_check_eq "existing results dir refused" "$?" 1
for bad in PFT_ITERATIONS=0 PFT_ITERATIONS=x PFT_MAPPING_SIZE=1q PFT_MIN_CLIENTS=0 \
	PFT_MAX_CLIENTS=0 PFT_USE_PROCESSES=maybe PFT_PAGESIZES=huge PFT_MAX_CLIENTS=2000 \
	PFT_MAPPING_SIZE=4096 PFT_SHAPE=cow PFT_FILE=/tmp/x; do
	err=$(
		env PFT_MAX_CLIENTS=2 "$bad" "$SWEEP" -o "$OUT/bad" 2>&1 >/dev/null)
	rc=$?
	fl_check_eq "$bad exit status" "$rc" 2
	fl_check_eq "$bad error lines" "$(printf '%s\n' "$err" | wc -l)" 1
	fl_check_cmd "$bad wrote nothing" test ! -e "$OUT/bad"
done

# a file shape (issue 17): PFT_SHAPE on a memfd, recorded in sweep.conf
R=$OUT/rshape
PFT_SHAPE=read PFT_ITERATIONS=1 PFT_MAPPING_SIZE=4m PFT_MAX_CLIENTS=1 "$SWEEP" -o "$R" >/dev/null 2>&1
fl_check_eq "PFT_SHAPE=read sweep" "$?" 0
fl_check_cmd "sweep.conf PFT_SHAPE=read" grep -qx PFT_SHAPE=read "$R/sweep.conf"
fl_check_cmd "sweep.conf pft args carry the shape" grep -qx \
	'SWEEP_PFT_ARGS=-m,4m,-t,N,--thp=never,--tmpfs,--read' "$R/sweep.conf"
fl_check_eq "PFT_SHAPE=read: one classic line" "$(awk 'NF == 8' "$R/pft-1.log" | wc -l)" 1

# a stub collector: records its arguments, writes the snapshot, runs pft
cat >"$OUT/stubrec" <<'STUB'
#!/bin/sh
[ "$1" = -o ] || exit 9
snap=$2; shift 2
[ "$1" = -- ] || exit 9
shift
echo "stub $snap" >"$snap"
echo "collector summary on stdout"
exec "$@"
STUB
chmod +x "$OUT/stubrec"
R=$OUT/r2
FAULTLINE_RECORD="$OUT/stubrec -o" PFT_ITERATIONS=2 PFT_MAPPING_SIZE=4m PFT_MAX_CLIENTS=1 \
	PFT_USE_PROCESSES=yes "$SWEEP" -o "$R" >/dev/null 2>&1
fl_check_eq "sweep under a collector" "$?" 0
fl_check_eq "snapshots" "$(cd "$R/snap" 2>/dev/null && ls | tr '\n' ' ')" "pft-1-1.snap pft-1-2.snap "
fl_check_eq "pft-1.log keeps only pft lines" "$(awk 'NF == 8' "$R/pft-1.log" | wc -l)" 2
fl_check_cmd "collector output kept in sweep.err" grep -q "collector summary" "$R/sweep.err"
fl_check_cmd "sweep.conf PFT_USE_PROCESSES=yes" grep -qx PFT_USE_PROCESSES=yes "$R/sweep.conf"

# a failing run stops the sweep: no partial log
cat >"$OUT/badpft" <<STUB
#!/bin/sh
case "\$*" in --series*|--check*) exec "$PFT" "\$@" ;; esac
exit 1
STUB
chmod +x "$OUT/badpft"
R=$OUT/r3
PFT_ITERATIONS=2 PFT_MAPPING_SIZE=4m PFT_MAX_CLIENTS=1 "$SWEEP" --pft "$OUT/badpft" -o "$R" >/dev/null 2>&1
fl_check_eq "failing pft stops the sweep" "$?" 1
fl_check_cmd "no partial pft-1.log" test ! -e "$R/pft-1.log"
fl_check_eq "failing first run: what is left" "$(cd "$R" && ls -A | tr '\n' ' ')" "sweep.conf tags "

# issue 28: a sweep that fails at 2 clients (under the stub collector, so
# that there are snapshots) cleans up after itself ...
cat >"$OUT/fail2pft" <<STUB
#!/bin/sh
case "\$*" in --series*|--check*) exec "$PFT" "\$@" ;; esac
case " \$* " in *" -n 2 "*) echo "fail2pft: injected failure" >&2; exit 3 ;; esac
exec "$PFT" "\$@"
STUB
chmod +x "$OUT/fail2pft"
R=$OUT/r4
r4() {	# r4 PFT [VAR=VALUE...]: the r4 sweep, its exit status
	local pft=$1
	shift
	env FAULTLINE_RECORD="$OUT/stubrec -o" PFT_ITERATIONS=2 PFT_MAPPING_SIZE=4m \
		PFT_MAX_CLIENTS=2 PFT_USE_PROCESSES=yes "$@" "$SWEEP" --pft "$pft" -o "$R" \
		>"$OUT/r4.stdout" 2>"$OUT/r4.stderr"
}
r4 "$OUT/fail2pft"
fl_check_eq "sweep failing at 2 clients exit status" "$?" 1
fl_check_eq "failed sweep: what is left" "$(cd "$R" && ls -A | tr '\n' ' ')" \
	"pft-1.log snap sweep.conf sweep.err tags "
fl_check_eq "failed sweep: snapshots of the complete count only" \
	"$(cd "$R/snap" && ls -A | tr '\n' ' ')" "pft-1-1.snap pft-1-2.snap "
fl_check_cmd "failed sweep: pft's message in sweep.err" grep -q "injected failure" "$R/sweep.err"
fl_check_cmd "failed sweep: the error says how to resume" grep -q "resume" "$OUT/r4.stderr"
fl_check_cmd "failed sweep: sweep.conf unfinished" test -z "$(grep '^SWEEP_FINISHED=' "$R/sweep.conf")"
cp "$R/pft-1.log" "$OUT/r4-pft-1.log"
cp "$R/sweep.conf" "$OUT/r4-sweep.conf"
# ... other settings: refused, the directory as it was
r4 "$PFT" PFT_ITERATIONS=3
fl_check_eq "resume with other settings refused" "$?" 1
fl_check_cmd "refusal names the setting" grep -q "PFT_ITERATIONS=3" "$OUT/r4.stderr"
fl_check_cmd "refusal: sweep.conf untouched" cmp -s "$R/sweep.conf" "$OUT/r4-sweep.conf"
fl_check_eq "refusal: what is left" "$(cd "$R" && ls -A | tr '\n' ' ')" \
	"pft-1.log snap sweep.conf sweep.err tags "
# ... what a SIGKILLed sweep would leave, then a resume with the same settings
: >"$R/.out.99999"
echo "   0    2   1     0.00s     0.01s     0.01s   1.000 1.000" >"$R/pft-2.log.tmp"
echo stale >"$R/snap/pft-2-1.snap"
r4 "$PFT"
fl_check_eq "resumed sweep exit status" "$?" 0
fl_check_cmd "resume says so" grep -q "resuming $R: 1 of 2 client counts" "$OUT/r4.stderr"
fl_check_eq "resumed sweep: files" "$(cd "$R" && ls -A | tr '\n' ' ')" \
	"pft-1.log pft-2.log snap sweep.conf sweep.err tags "
fl_check_cmd "resumed sweep: pft-1.log kept" cmp -s "$R/pft-1.log" "$OUT/r4-pft-1.log"
fl_check_eq "resumed sweep: pft-2.log classic lines" "$(awk 'NF == 8 && $2 == 2' "$R/pft-2.log" | wc -l)" 2
fl_check_eq "resumed sweep: snapshots" "$(cd "$R/snap" && ls -A | tr '\n' ' ')" \
	"pft-1-1.snap pft-1-2.snap pft-2-1.snap pft-2-2.snap "
fl_check_cmd "resumed sweep: stale snapshot replaced" grep -q "^stub " "$R/snap/pft-2-1.snap"
fl_check_cmd "resumed sweep: SWEEP_STARTED kept" grep -qx \
	"$(grep '^SWEEP_STARTED=' "$OUT/r4-sweep.conf")" "$R/sweep.conf"
fl_check_cmd "resumed sweep: SWEEP_RESUMED" grep -q '^SWEEP_RESUMED=' "$R/sweep.conf"
fl_check_cmd "resumed sweep: SWEEP_FINISHED" grep -q '^SWEEP_FINISHED=' "$R/sweep.conf"
r4 "$PFT"
fl_check_eq "finished sweep refused" "$?" 1

# issue 28: SIGTERM in the middle of a run: the run is stopped, the
# temporaries go, the exit status says so
cat >"$OUT/slowpft" <<STUB
#!/bin/sh
case "\$*" in --series*|--check*) exec "$PFT" "\$@" ;; esac
case " \$* " in *" -t 2 "*) echo \$\$ >"$OUT/slowpft.pid"; exec sleep 20 ;; esac
exec "$PFT" "\$@"
STUB
chmod +x "$OUT/slowpft"
R=$OUT/r5
PFT_ITERATIONS=2 PFT_MAPPING_SIZE=4m PFT_MAX_CLIENTS=2 "$SWEEP" --pft "$OUT/slowpft" -o "$R" \
	>/dev/null 2>&1 &
SP=$!
for _ in $(seq 100); do [ -s "$OUT/slowpft.pid" ] && break; sleep 0.1; done
T0=$(date +%s)
kill -TERM "$SP"
wait "$SP"
fl_check_eq "SIGTERMed sweep exit status" "$?" 143
fl_check_le "SIGTERMed sweep stops at once (seconds)" "$(($(date +%s) - T0))" 5
fl_check_eq "SIGTERMed sweep: what is left" "$(cd "$R" && ls -A | tr '\n' ' ')" \
	"pft-1.log sweep.conf tags "
fl_check_cmd "SIGTERMed sweep: the run stopped" sh -c "! kill -0 $(cat "$OUT/slowpft.pid" 2>/dev/null || echo 999999999) 2>/dev/null"

# --wis (issue 27).  The task series: what mmtests' bin/generate-stride-range
# (topology pattern) prints for these MIN MAX CPUS SMT LLC NODE weights (run
# with its common.sh weights set by hand, gormanm/mmtests 638401e).
fl_check_eq "wis series 2 CPUs" "$("$SWEEP" --topology-series 1 2 2 1 2 2)" "1 2"
fl_check_eq "wis series 8 CPUs SMT2" "$("$SWEEP" --topology-series 1 8 8 2 8 8)" "1 2 3 5 6 8"
fl_check_eq "wis series 64 CPUs 4 LLCs 2 nodes" "$("$SWEEP" --topology-series 1 64 64 2 16 32)" \
	"1 2 5 9 12 16 21 26 31 32 48 64"
fl_check_eq "wis series 256 CPUs" "$("$SWEEP" --topology-series 1 256 256 2 32 128)" \
	"1 2 9 17 24 32 48 64 80 96 112 128 192 256"
fl_check_eq "wis series from 2, past the CPUs" "$("$SWEEP" --topology-series 2 8 4 1 4 4)" \
	"2 3 4 5 6 7 8"
# a stand-in will-it-scale test printing a real run's output (the fixture),
# failing at 2 tasks while $OUT/wisfail exists
W=$OUT/wis
mkdir -p "$W"
cat >"$W/page_fault1_threads" <<STUB
#!/bin/sh
[ "\$1" = -t ] && [ "\$3" = -s ] && [ "\$4" = 15 ] || exit 9
[ "\$2" = 2 ] && [ -e "$OUT/wisfail" ] && exit 3
exec cat "$TOP/tests/fixtures/will-it-scale/benchlog-page_fault1_threads-\$2"
STUB
chmod +x "$W/page_fault1_threads"
R=$OUT/rwis
: >"$OUT/wisfail"
WIS_MAX_THREADS=2 "$SWEEP" --wis "$W" -o "$R" >/dev/null 2>&1
fl_check_eq "wis sweep failing at 2 tasks" "$?" 1
fl_check_eq "failed wis sweep: what is left" "$(cd "$R" && ls -A | tr '\n' ' ')" \
	"benchlog-page_fault1_threads-1 models sweep.conf tags workloads "
rm "$OUT/wisfail"
WIS_MAX_THREADS=2 "$SWEEP" --wis "$W" -o "$R" >/dev/null 2>"$OUT/rwis.stderr"
fl_check_eq "wis sweep resumed" "$?" 0
fl_check_cmd "wis resume says so" grep -q "1 of 2 runs done before" "$OUT/rwis.stderr"
for n in 1 2; do
	fl_check_eq "benchlog $n: the output from measurement on (wis-bench's sed '1,8d')" \
		"$(cat "$R/benchlog-page_fault1_threads-$n")" \
		"$(sed '1,8d' "$TOP/tests/fixtures/will-it-scale/benchlog-page_fault1_threads-$n")"
done
fl_check_eq "wis workloads file" "$(cat "$R/workloads")" page_fault1
fl_check_eq "wis models file" "$(cat "$R/models")" threads
fl_check_cmd "sweep.conf WIS_ITERATIONS=15" grep -qx WIS_ITERATIONS=15 "$R/sweep.conf"
if [ -x "$TOP/user/faultline" ]; then
	"$TOP/user/faultline" compare -f csv "$R" "$R" >"$OUT/rwis.csv" 2>/dev/null
	fl_check_eq "compare reads the wis sweep" "$?" 0
	fl_check_eq "compare: wis_ops rows with 15 samples" \
		"$(grep -c '^wis_ops_\([12]\),wis_ops,\1,ops/s,A,[^,]*,15,' "$OUT/rwis.csv")" 2
fi
for bad in WIS_MODELS=fibers WIS_WORKLOADS=Page-Fault WIS_ITERATIONS=0 WIS_MIN_THREADS=3 \
	WIS_WORKLOADS=brk1; do
	err=$(env WIS_MAX_THREADS=2 "$bad" "$SWEEP" --wis "$W" -o "$OUT/badwis" 2>&1 >/dev/null)
	fl_check_eq "--wis $bad exit status" "$?" 2
	fl_check_eq "--wis $bad error lines" "$(printf '%s\n' "$err" | wc -l)" 1
	fl_check_cmd "--wis $bad wrote nothing" test ! -e "$OUT/badwis"
done
fl_done
