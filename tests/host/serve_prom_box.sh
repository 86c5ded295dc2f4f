#!/bin/sh
# faultline serve in the test box (where the fentry tier and the module
# work), scraped every second by Debian's real prometheus server on this
# host through a QEMU user-networking port forward (tools/testbox/run
# --hostfwd HOSTPORT:9477; ports picked free here).  The guest half,
# tests/host/guest/serve_prom_box.sh, runs pft -m 64m (16384 pages) under
# `serve --tier fentry` (beside a `record -p` of the same process) and then
# under `serve -b kmod`, each with its own run label, and leaves its own
# last scrape and `faultline report`'s figures of the same window in /out.
# Checks here, for each run, through Prometheus's HTTP query API at the
# run's last sample (no extrapolation: the counters start at 0 before pft):
#  - sum(increase(faultline_faults_total[1h])) = 16384 pages +-2%, and the
#    last sample = the guest's own last scrape;
#  - histogram_quantile(0.5 and 0.99) of increase(fault_latency buckets) is
#    within one histogram bucket of `faultline report`'s p50/p99 of the
#    snapshot serve wrote at exit (serve -o: the very counts it served), for
#    both runs; kmod also within one bucket of the module's own summary; fentry
#    within a power of two (8 buckets) of a parallel `record -p`
#    of the same process on the fentry tier (a second BPF instance: each
#    times the other's programs, 2 buckets apart measured at p99 on 6.1);
#    the buckets are the histogram's own 272 (1/8 of a power of two each:
#    the guest runs serve --prom-buckets full);
#  - the module's count = serve's count exactly.
# Verdicts compare figures only; every wait is bounded and generous (TCG on
# a busy 2-core host).
#   tests/host/serve_prom_box.sh [OUTDIR]   (SERVE_BOX_KERNELS, default 6.12)
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host}/serve_box
PROMBIN=${FAULTLINE_CACHE:-/var/cache/faultline}/prometheus/usr/bin
KCACHE=${FAULTLINE_CACHE:-/var/cache/faultline}/kernels
KERNELS=${SERVE_BOX_KERNELS:-6.12}
PAGES=16384
[ -x "$TOP/user/faultline" ] && [ -x "$TOP/tools/pft/pft" ] ||
	fl_skip "build user/faultline and tools/pft/pft first"
[ -x "$PROMBIN/prometheus" ] || fl_skip "no prometheus in $PROMBIN (tools/setup-deps)"
command -v qemu-system-x86_64 >/dev/null || fl_skip "no qemu-system-x86_64 (make deps)"
command -v python3 >/dev/null || fl_skip "no python3"
rm -rf "$OUT"
mkdir -p "$OUT"

PROM=
cleanup() {
	[ -n "$PROM" ] && kill "$PROM" 2>/dev/null
	wait 2>/dev/null
}
trap cleanup EXIT

# the figures of one run: Prometheus's against the guest's (python: JSON)
compare() {  # BOXOUT RUN
	python3 - "$PURL" "$1" "$2" "$PAGES" <<'PY'
import json, sys, urllib.parse, urllib.request
purl, box, run, pages = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def query(q, t=None):
    args = {"query": q}
    if t is not None:
        args["time"] = t
    r = json.load(urllib.request.urlopen(purl + "/api/v1/query?" + urllib.parse.urlencode(args),
                                         timeout=30))
    return r["data"]["result"]

def one(q, t):
    res = query(q, t)
    return float(res[0]["value"][1]) if res else None

sel = 'run="%s"' % run
# the run's last sample: the series are stale now that the guest is off
m = query('faultline_faults_total{%s,mode="user"}[2h]' % sel)
if not m:
    print("value: none none none"); sys.exit(0)
ts = m[0]["values"][-1][0]
inc = one('sum(increase(faultline_faults_total{%s}[2h]))' % sel, ts)
last = one('faultline_faults_total{%s,mode="user"}' % sel, ts)
print("value: ts %s increase %.0f last %.0f" % (ts, inc, last))
# the histogram's bounds as the guest exported them (ns), and the guest's own figures
les = []
served = None
for l in open("%s/%s.prom" % (box, run)):
    if l.startswith("faultline_fault_latency_seconds_bucket{") and 'le="+Inf"' not in l:
        le = l.split('le="')[1].split('"')[0]
        i, _, f = le.partition(".")
        les.append(int(i) * 10**9 + int((f + "000000000")[:9]))
    if l.startswith("faultline_faults_total{") and 'mode="user"' in l:
        served = int(l.split()[-1])
print("value: bounds %d served %s" % (len(les), served))
rep = {}
if run == "kmod":   # the module's summary: "fault_latency count mean p50 p90 p99 max"
    hist = False
    for l in open("%s/kmod-report.txt" % box):
        w = l.split()
        if w and w[0] == "histograms":
            hist = True
        elif len(w) == 2 and not hist:
            rep[w[0]] = w[1]
        elif hist and len(w) >= 7 and w[0] == "fault_latency":
            rep["p50"], rep["p99"] = w[3], w[5]
    rep["faults_user"] = rep.get("faults_user")
else:
    for l in open("%s/fentry-report.txt" % box):
        k, _, v = l.strip().partition("=")
        if k == "fault_latency.p50_ns": rep["p50"] = v
        if k == "fault_latency.p99_ns": rep["p99"] = v
        if k == "faults_user": rep["faults_user"] = v
print("value: report faults_user %s p50 %s p99 %s" % (rep.get("faults_user"), rep.get("p50"), rep.get("p99")))

def idx(ns):   # the bucket holding ns: the first le >= ns (le inclusive, in whole ns)
    for i, le in enumerate(les):
        if ns <= le + 0.5:
            return i
    return len(les)

# `report` on the snapshot serve wrote at exit (-o): the very counts serve
# served, through the collector's own quantile rule
srep = {}
for l in open("%s/%s-serve-report.txt" % (box, run)):
    k, _, v = l.strip().partition("=")
    if k in ("fault_latency.p50_ns", "fault_latency.p99_ns"):
        srep["p" + k.split(".")[1][1:3]] = v

for q in ("50", "99"):
    p = one('histogram_quantile(0.%s, sum by (le) (increase(faultline_fault_latency_seconds_bucket{%s}[2h])))'
            % (q, sel), ts)
    r = rep.get("p" + q)
    if p is None or r is None or not les:
        print("check: FAIL %s p%s: Prometheus %s, report %s" % (run, q, p, r)); continue
    ip, ir = idx(p * 1e9), idx(float(r))
    # kmod: report's figure is of the very counts serve read: one bucket at most.
    # fentry: record is a second BPF instance beside serve (each times the
    # other's programs), so its histogram is another one: within a power of
    # two (8 buckets) of it; both: one bucket of report on serve's own snapshot.
    far = 1 if run == "kmod" else 8
    ok = abs(ip - ir) <= far
    print("check: %s %s p%s: Prometheus %.0f ns (bucket %d, (%d, %d] ns), report %s ns (bucket %d): %d apart, at most %d wanted"
          % ("PASS" if ok else "FAIL", run, q, p * 1e9, ip, les[ip - 1] if ip else -1,
             les[ip] if ip < len(les) else -1, r, ir, abs(ip - ir), far))
    s = srep.get("p" + q)
    if s is None:
        print("check: FAIL %s p%s: no report of serve's -o snapshot" % (run, q)); continue
    ik = idx(float(s))
    ok = abs(ip - ik) <= 1
    print("check: %s %s p%s: Prometheus bucket %d, report of serve's own snapshot %s ns (bucket %d): %d apart, at most 1 wanted"
          % ("PASS" if ok else "FAIL", run, q, ip, s, ik, abs(ip - ik)))
PY
}
val() { sed -n "s/^value: $2 \([^ ]*\).*/\1/p" "$1"; }

ran=0
for k in $KERNELS; do
	[ -f "$KCACHE/$k/vmlinuz" ] || { fl_skip_check "serve_box@$k" "kernel $k not in $KCACHE (make deps)"; continue; }
	ran=$((ran + 1))
	ports=$(python3 -c '
import socket
ss=[socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1",0))
print(" ".join(str(s.getsockname()[1]) for s in ss))')
	set -- $ports
	HPORT=$1 PPORT=$2
	PURL=http://127.0.0.1:$PPORT
	mkdir -p "$OUT/$k/tsdb"
	cat >"$OUT/$k/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: faultline-box
    static_configs:
      - targets: ['127.0.0.1:$HPORT']
YML
	"$PROMBIN/prometheus" --config.file="$OUT/$k/prometheus.yml" \
		--storage.tsdb.path="$OUT/$k/tsdb" --web.listen-address=127.0.0.1:$PPORT \
		>"$OUT/$k/prometheus.log" 2>&1 &
	PROM=$!
	"$TOP/tools/testbox/run" -k "$k" --smp 2 --timeout 1500 --hostfwd "$HPORT:9477" \
		--out "$OUT/$k/box" "$TOP/tests/host/guest/serve_prom_box.sh" "$PPORT" 9477 \
		>"$OUT/$k/box.log" 2>&1
	rc=$?
	grep -a -E '^(check|skip-check|value):|^serve: |testbox: (PASS|FAIL|warning)' "$OUT/$k/box.log" |
		sed "s/^/box@$k: /"
	fl_check_eq "box@$k: the guest's half passes" "$rc" 0
	for run in fentry kmod; do
		compare "$OUT/$k/box" "$run" >"$OUT/$k/$run.cmp" 2>&1
		cat "$OUT/$k/$run.cmp"
		if [ ! -f "$OUT/$k/box/$run.prom" ]; then
			fl_fail "$k $run: the guest left no exposition"
			continue
		fi
		grep -q '^check: FAIL' "$OUT/$k/$run.cmp" && FL_FAILS=$((FL_FAILS + $(grep -c '^check: FAIL' "$OUT/$k/$run.cmp")))
		fl_check_eq "$k $run: the exposition has the histogram's 272 bounds" "$(val "$OUT/$k/$run.cmp" bounds)" 272
		fl_check_within "$k $run: Prometheus sum(increase(faultline_faults_total)) vs pft's pages" \
			"$(val "$OUT/$k/$run.cmp" 'ts [^ ]* increase')" $PAGES 2
		fl_check_eq "$k $run: Prometheus's last sample = the guest's last scrape" \
			"$(val "$OUT/$k/$run.cmp" 'ts [^ ]* increase [^ ]* last')" \
			"$(val "$OUT/$k/$run.cmp" 'bounds [^ ]* served')"
		if [ $run = kmod ]; then
			fl_check_eq "$k kmod: serve's count = the module's summary" \
				"$(val "$OUT/$k/$run.cmp" 'bounds [^ ]* served')" \
				"$(val "$OUT/$k/$run.cmp" 'report faults_user')"
		else
			fl_check_within "$k fentry: serve's count vs record's of the same process" \
				"$(val "$OUT/$k/$run.cmp" 'bounds [^ ]* served')" \
				"$(val "$OUT/$k/$run.cmp" 'report faults_user')" 1
		fi
	done
	kill "$PROM" 2>/dev/null
	wait "$PROM" 2>/dev/null
	PROM=
done
[ $ran -gt 0 ] || fl_skip "none of the kernels $KERNELS is in $KCACHE (make deps)"
fl_done
