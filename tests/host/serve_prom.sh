#!/bin/sh
# faultline serve on the machine itself (tracepoint tier), scraped every
# second by Debian's real prometheus server (unpacked by tools/setup-deps
# beside promtool).  pft -m 256m runs in a process that serve (-p) and a
# `faultline record -p` of the same window both trace, held until both are
# attached.  Checks:
#  - through Prometheus's HTTP API, sum(increase(faultline_faults_total[...]))
#    (both modes, user and kernel) evaluated at the last sample's timestamp (no extrapolation at the end; the
#    counter starts at ~0, so none at the start) = 65536 pages +-2%; /proc/vmstat's
#    pgfault delta covers it; record's snapshot of the same process agrees +-1%;
#    histogram_quantile answers for mmap_lock write wait;
#  - promtool check metrics is clean on a scraped exposition (and on a
#    --per-cpu one); the latency figures are absent and listed in
#    faultline_unavailable on this tier; --textfile writes an exposition;
#  - SCRAPES (default 10000) scrapes in a bounded loop: serve's RSS flat within 1 MiB,
#    promtool clean on 20 expositions sampled from the loop;
#  - 20 parallel slow clients (one byte read per 0.2 s), one that never reads
#    and one that never sends: collection does not stall (reads_total advances);
#  - SIGTERM: exit 0, and every BPF program and link serve held is gone;
#    SIGHUP: the backend is reopened, counters stay monotonic; SIGKILL
#    mid-scrape leaves no program or link, and a restart on the same port works;
#  - --cgroup: a process moved into a fresh cgroup is traced (16384 pages +-2%);
#  - without privileges: refused with one line.
#   tests/host/serve_prom.sh [OUTDIR]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host}/serve
FL=$TOP/user/faultline
PFT=$TOP/tools/pft/pft
PROMBIN=${FAULTLINE_CACHE:-/var/cache/faultline}/prometheus/usr/bin
SCRAPES=${SCRAPES:-10000}
[ "$(id -u)" = 0 ] || fl_skip "needs root"
[ -r /sys/kernel/btf/vmlinux ] || fl_skip "no kernel BTF"
[ -x "$FL" ] && [ -x "$PFT" ] || fl_skip "build user/faultline and tools/pft/pft first"
[ -x "$PROMBIN/prometheus" ] && [ -x "$PROMBIN/promtool" ] ||
	fl_skip "no prometheus/promtool in $PROMBIN (tools/setup-deps)"
command -v python3 >/dev/null || fl_skip "no python3"
rm -rf "$OUT"
mkdir -p "$OUT/tsdb" "$OUT/textfile"

# free loopback ports
ports=$(python3 -c '
import socket
ss=[socket.socket() for _ in range(3)]
for s in ss: s.bind(("127.0.0.1",0))
print(" ".join(str(s.getsockname()[1]) for s in ss))')
set -- $ports
SPORT=$1 PPORT=$2 SPORT2=$3
SURL=http://127.0.0.1:$SPORT/metrics
PURL=http://127.0.0.1:$PPORT

SERVE= PROM= REC= HOLD=
cleanup() {
	for p in $SERVE $PROM $REC $HOLD; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
}
trap cleanup EXIT

get() { python3 -c 'import sys,urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "$1"; }
# instant query: the first result's value (or "none")
pq() {
	python3 - "$PURL" "$@" <<'EOF'
import json, sys, urllib.parse, urllib.request
base, q = sys.argv[1], sys.argv[2]
args = {"query": q}
if len(sys.argv) > 3:
    args["time"] = sys.argv[3]
r = json.load(urllib.request.urlopen(base + "/api/v1/query?" + urllib.parse.urlencode(args), timeout=10))
res = r["data"]["result"]
print(res[0]["value"][1] if res else "none")
EOF
}
metric() {  # NAME-with-labels-prefix FILE
	awk -v k="$1" 'index($0, k) == 1 && substr($0, length(k) + 1, 1) ~ /[{ ]/ { print $NF; exit }' "$2"
}
pgfault() { awk '$1 == "pgfault" { print $2 }' /proc/vmstat; }
# faultline_faults_total{...,mode="user"} of an exposition (stdin or FILE)
faults_user() { awk '/^faultline_faults_total\{.*mode="user"/ { print $NF; exit }' "$@"; }

# the workload: a shell held on a fifo, then exec pft (same tgid)
mkfifo "$OUT/go"
sh -c "read x < '$OUT/go'; exec '$PFT' -m 256m -t 1" >"$OUT/pft.txt" 2>&1 &
HOLD=$!

"$FL" serve --listen 127.0.0.1:$SPORT -p $HOLD -i 1 --textfile "$OUT/textfile" \
	>"$OUT/serve.txt" 2>&1 &
SERVE=$!
"$FL" record -q -p $HOLD -o "$OUT/rec.snap" >"$OUT/record.txt" 2>&1 &
REC=$!
cat >"$OUT/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: faultline
    static_configs:
      - targets: ['127.0.0.1:$SPORT']
EOF
"$PROMBIN/prometheus" --config.file="$OUT/prometheus.yml" --storage.tsdb.path="$OUT/tsdb" \
	--web.listen-address=127.0.0.1:$PPORT >"$OUT/prometheus.log" 2>&1 &
PROM=$!
# serve answering, record attached (its tier line), Prometheus ready and scraping
for i in $(seq 300); do
	get "$SURL" >/dev/null 2>&1 && [ "$(pq 'up{job="faultline"}' 2>/dev/null)" = 1 ] && break
	sleep 0.2
done
sleep 2
cat "$OUT/serve.txt"
fl_check_eq "prometheus scrapes faultline serve (up)" "$(pq 'up{job="faultline"}')" 1
vm0=$(pgfault)
echo go >"$OUT/go"
wait $HOLD
fl_check_eq "pft exits 0" $? 0
HOLD=
vm1=$(pgfault)
wait $REC
fl_check_eq "record -p of the same process exits 0" $? 0
REC=
cat "$OUT/pft.txt"
# serve reads every second, Prometheus scrapes every second: wait until
# serve's counter is still and Prometheus has its value (a busy host lags)
prev=
for i in $(seq 60); do
	sleep 0.5
	get "$SURL" >"$OUT/scrape.prom"
	served=$(faults_user "$OUT/scrape.prom")
	[ "$served" = "$prev" ] && [ "$(pq 'faultline_faults_total{mode="user"}')" = "$served" ] && break
	prev=$served
done
ts=$(pq 'timestamp(faultline_faults_total{mode="user"})')
inc=$(pq 'sum(increase(faultline_faults_total[10m]))' "$ts")
last=$(pq 'faultline_faults_total{mode="user"}' "$ts")
echo "served faults_total{mode=user} $served; Prometheus at $ts: last $last, increase (both modes) $inc; pgfault delta $((vm1 - vm0))"
fl_check_within "Prometheus sum(increase(faultline_faults_total)) vs pft's 65536 pages" \
	"$(printf '%.0f' "$inc")" 65536 2
fl_check_within "Prometheus's last sample = serve's counter" "$last" "$served" 0
fl_check_ge "pgfault delta covers the faults served" "$((vm1 - vm0))" "$(printf '%.0f' "$inc")"
rec=$("$FL" report --raw "$OUT/rec.snap" | sed -n 's/^faults_user=//p')
echo "record -p of the same process: faults_user $rec"
fl_check_within "serve agrees with record of the same window" "$served" "$rec" 1
q=$(pq 'histogram_quantile(0.99, sum by (le) (increase(faultline_mmap_lock_wait_write_seconds_bucket[10m])))' "$ts")
echo "p99 mmap_lock write wait (Prometheus): $q s"
case $q in none|NaN|"") fl_fail "histogram_quantile of mmap_lock write wait: '$q'" ;;
*) fl_pass "histogram_quantile of mmap_lock write wait answers: $q s" ;; esac

"$PROMBIN/promtool" check metrics <"$OUT/scrape.prom" >"$OUT/promtool.txt" 2>&1
fl_check_eq "promtool check metrics on the scraped exposition" $? 0
cat "$OUT/promtool.txt"
grep -q '^faultline_unavailable{.*figure="latency"' "$OUT/scrape.prom"
fl_check_eq "latency listed in faultline_unavailable (tracepoint tier)" $? 0
if grep -q '^faultline_fault_latency' "$OUT/scrape.prom"; then
	fl_fail "latency series exported on the tracepoint tier"
else
	fl_pass "no latency series on the tracepoint tier (absent, not 0)"
fi
if grep -q 'cpu="' "$OUT/scrape.prom"; then fl_fail "cpu label without --per-cpu"
else fl_pass "no per-CPU series without --per-cpu"; fi
"$PROMBIN/promtool" check metrics <"$OUT/textfile/faultline.prom" >/dev/null 2>&1
fl_check_eq "--textfile DIR/faultline.prom written and clean" $? 0
ls "$OUT/textfile" | grep -v '^faultline.prom$' >"$OUT/textfile-extra.txt"
fl_check_eq "no temp files left in the textfile directory" "$(wc -l <"$OUT/textfile-extra.txt")" 0

# OpenMetrics when asked (as Prometheus asks by default): parsed by
# python3-prometheus-client's strict OpenMetrics parser
lasterr=$(python3 - "$PURL" <<'EOF'
import json, sys, urllib.request
t = json.load(urllib.request.urlopen(sys.argv[1] + "/api/v1/targets", timeout=10))
print([x["lastError"] for x in t["data"]["activeTargets"]])
EOF
)
fl_check_eq "Prometheus's scrape of serve has no error" "$lasterr" "['']"
/usr/bin/python3 - "$SURL" >"$OUT/om.txt" 2>&1 <<'EOF'
import sys, urllib.request
from prometheus_client.openmetrics.parser import text_string_to_metric_families
acc = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
r = urllib.request.urlopen(urllib.request.Request(sys.argv[1], headers={"Accept": acc}), timeout=10)
ct = r.headers["Content-Type"]
fams = list(text_string_to_metric_families(r.read().decode()))
print("%s: %d families" % (ct, len(fams)))
sys.exit(0 if ct.startswith("application/openmetrics-text; version=1.0.0") and fams else 1)
EOF
rc=$?
cat "$OUT/om.txt"
if grep -q "No module named" "$OUT/om.txt"; then
	echo "skip: OpenMetrics parse (no python3-prometheus-client)"
else
	fl_check_eq "OpenMetrics when asked: parsed by prometheus_client's OpenMetrics parser" $rc 0
fi

# bounded scrape loop: RSS flat
rss() { awk '/^VmRSS:/ { print $2 }' /proc/$SERVE/status; }
python3 - "$SPORT" 200 <<'EOF'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
for i in range(int(sys.argv[2])):
    c.request("GET", "/metrics"); c.getresponse().read()
EOF
r0=$(rss)
mkdir -p "$OUT/sample"
python3 - "$SPORT" "$SCRAPES" "$OUT/sample" >"$OUT/scrapes.txt" 2>&1 <<'EOF'
import http.client, sys, time
port, n, bad = int(sys.argv[1]), int(sys.argv[2]), 0
t = time.time()
for i in range(n):
    # a new connection every 10 requests, keep-alive in between
    if i % 10 == 0:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("GET", "/metrics")
    r = c.getresponse()
    body = r.read()
    if r.status != 200 or not body.startswith(b"# HELP faultline_info"):
        bad += 1
    if i % (n // 20 or 1) == 0:	# a sample for promtool
        open("%s/%06d.prom" % (sys.argv[3], i), "wb").write(body)
print("%d scrapes in %.1fs, %d bad" % (n, time.time() - t, bad))
sys.exit(bad != 0)
EOF
fl_check_eq "$SCRAPES scrapes answered" $? 0
bad=0
for f in "$OUT"/sample/*.prom; do
	"$PROMBIN/promtool" check metrics <"$f" >/dev/null 2>&1 || { bad=$((bad + 1)); echo "promtool: $f"; }
done
fl_check_eq "promtool check metrics on $(ls "$OUT/sample" | wc -l) expositions sampled from the loop" $bad 0
r1=$(rss)
cat "$OUT/scrapes.txt"
echo "serve RSS: $r0 KiB after warm-up, $r1 KiB after $SCRAPES scrapes"
d=$((r1 > r0 ? r1 - r0 : r0 - r1))
if [ "$d" -le 1024 ]; then fl_pass "RSS flat within 1 MiB over $SCRAPES scrapes: moved $d KiB"
else fl_fail "RSS moved $d KiB (> 1 MiB) over $SCRAPES scrapes"; fi

# slow clients do not stall collection
python3 - "$SPORT" >"$OUT/slow.txt" 2>&1 <<'EOF'
import re, socket, sys, threading, time, urllib.request
port = int(sys.argv[1])
url = "http://127.0.0.1:%d/metrics" % port
def reads():
    t = urllib.request.urlopen(url, timeout=5).read().decode()
    return int(re.search(r"^faultline_serve_reads_total\{[^}]*\} (\d+)", t, re.M).group(1))
stop = time.time() + 6
def slow():
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    while time.time() < stop:
        if not s.recv(1):
            break
        time.sleep(0.2)
    s.close()
socks = []
never_read = socket.create_connection(("127.0.0.1", port))
never_read.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
never_send = socket.create_connection(("127.0.0.1", port))
th = [threading.Thread(target=slow) for _ in range(20)]
r0, t0 = reads(), time.time()
for t in th: t.start()
time.sleep(5)
r1, t1 = reads(), time.time()
for t in th: t.join()
print("reads_total %d -> %d over %.1fs with 20 slow clients, one never reading, one never sending" % (r0, r1, t1 - t0))
sys.exit(0 if r1 - r0 >= int(t1 - t0) - 1 else 1)
EOF
fl_check_eq "collection goes on beside 20 slow clients" $? 0
cat "$OUT/slow.txt"

# SIGHUP: reopened, counters monotonic
before=$(get "$SURL" | faults_user)
kill -HUP $SERVE
sleep 2.5
get "$SURL" >"$OUT/after-hup.prom"
after=$(faults_user "$OUT/after-hup.prom")
fl_check_eq "SIGHUP: a second backend session" "$(metric faultline_serve_sessions_total "$OUT/after-hup.prom")" 2
fl_check_ge "SIGHUP: faults_total{mode=user} monotonic" "$after" "$before"
grep -q "SIGHUP: backend reopened" "$OUT/serve.txt"
fl_check_eq "SIGHUP noted" $? 0

# SIGTERM: exit 0, nothing of ours left
ids=$(for f in /proc/$SERVE/fdinfo/*; do sed -n 's/^\(prog_id\|link_id\):[[:space:]]*/\1 /p' "$f" 2>/dev/null; done | sort -u)
echo "serve holds: $(echo "$ids" | tr '\n' ' ')"
fl_check_ge "serve holds BPF links" "$(echo "$ids" | grep -c '^link_id')" 1
kill -TERM $SERVE
wait $SERVE
fl_check_eq "SIGTERM: serve exits 0" $? 0
SERVE=
# the kernel frees a program after its last reference goes, a little later
# (RCU, workqueue): give it up to 5 s
for i in $(seq 50); do
	echo "$ids" | while read kind id; do
		[ -n "$id" ] || continue
		case $kind in prog_id) o=prog ;; link_id) o=link ;; esac
		bpftool $o show id "$id" >/dev/null 2>&1 && echo "$o $id"
	done >"$OUT/left.txt"
	[ -s "$OUT/left.txt" ] || break
	sleep 0.1
done
fl_check_eq "no BPF program or link of serve's left (bpftool)" "$(wc -l <"$OUT/left.txt")" 0
cat "$OUT/left.txt"
tail -1 "$OUT/serve.txt"

# SIGKILL mid-scrape, then a restart on the same port: nothing left behind
held_ids() { for f in /proc/$1/fdinfo/*; do sed -n 's/^\(prog_id\|link_id\):[[:space:]]*/\1 /p' "$f" 2>/dev/null; done | sort -u; }
gone() {  # ids on stdin: print those bpftool still shows
	while read kind id; do
		[ -n "$id" ] || continue
		case $kind in prog_id) o=prog ;; link_id) o=link ;; esac
		bpftool $o show id "$id" >/dev/null 2>&1 && echo "$o $id"
	done
}
"$FL" serve -q --listen 127.0.0.1:$SPORT >"$OUT/serve-kill.txt" 2>&1 &
SERVE=$!
for i in $(seq 50); do get "$SURL" >/dev/null 2>&1 && break; sleep 0.1; done
ids=$(held_ids $SERVE)
python3 - "$SPORT" <<'EOF' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
s.recv(1)
time.sleep(3)
EOF
cl=$!
sleep 0.5
kill -KILL $SERVE
wait $SERVE 2>/dev/null
SERVE=
for i in $(seq 50); do
	echo "$ids" | gone >"$OUT/left-kill.txt"
	[ -s "$OUT/left-kill.txt" ] || break
	sleep 0.1
done
fl_check_eq "SIGKILL mid-scrape: no BPF program or link left" "$(wc -l <"$OUT/left-kill.txt")" 0
"$FL" serve -q --listen 127.0.0.1:$SPORT -d 2 >"$OUT/serve-restart.txt" 2>&1 &
p=$!
ok=1
for i in $(seq 50); do get "$SURL" >/dev/null 2>&1 && { ok=0; break; }; sleep 0.1; done
fl_check_eq "restart on the same port after SIGKILL answers" $ok 0
wait $p
fl_check_eq "the restarted serve exits 0" $? 0
wait $cl 2>/dev/null

# --per-cpu exposition: promtool clean, a cpu label
"$FL" serve -q --per-cpu --listen 127.0.0.1:$SPORT2 -d 3 >"$OUT/serve-percpu.txt" 2>&1 &
p=$!
for i in $(seq 50); do get "http://127.0.0.1:$SPORT2/metrics" >"$OUT/percpu.prom" 2>/dev/null && break; sleep 0.1; done
wait $p
fl_check_eq "serve -d exits 0" $? 0
"$PROMBIN/promtool" check metrics <"$OUT/percpu.prom" >/dev/null 2>&1
fl_check_eq "promtool check metrics on the --per-cpu exposition" $? 0
grep -q '^faultline_faults_total{cpu="' "$OUT/percpu.prom"
fl_check_eq "--per-cpu: cpu label" $? 0

# --cgroup: a process moved into a fresh cgroup (v2 where mounted, else v1
# pids), traced with its pft: 16384 pages +-2%
CGROOT=
for d in /sys/fs/cgroup/unified /sys/fs/cgroup /sys/fs/cgroup/pids; do
	[ -f "$d/cgroup.procs" ] && { CGROOT=$d; break; }
done
if [ -n "$CGROOT" ] && mkdir "$CGROOT/faultline-serve-test.$$" 2>/dev/null; then
	CG=$CGROOT/faultline-serve-test.$$
	rm -f "$OUT/go"; mkfifo "$OUT/go"
	sh -c "read x < '$OUT/go'; exec '$PFT' -m 64m -t 1" >"$OUT/pft-cg.txt" 2>&1 &
	HOLD=$!
	echo $HOLD >"$CG/cgroup.procs"
	"$FL" serve -q --cgroup "$CG" --listen 127.0.0.1:$SPORT2 >"$OUT/serve-cg.txt" 2>&1 &
	SERVE=$!
	for i in $(seq 50); do get "http://127.0.0.1:$SPORT2/metrics" >/dev/null 2>&1 && break; sleep 0.1; done
	echo go >"$OUT/go"
	wait $HOLD
	HOLD=
	prev=
	for i in $(seq 30); do
		sleep 0.5
		cg=$(get "http://127.0.0.1:$SPORT2/metrics" | faults_user)
		[ "$cg" = "$prev" ] && break
		prev=$cg
	done
	fl_check_within "--cgroup: faults of the process in it vs pft's 16384 pages" "$cg" 16384 2
	kill -TERM $SERVE
	wait $SERVE
	fl_check_eq "--cgroup: serve exits 0" $? 0
	SERVE=
	rmdir "$CG"
else
	echo "skip: --cgroup (no writable cgroup hierarchy)"
fi

# without privileges: one line
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
		"$FL" serve --listen 127.0.0.1:$SPORT2 >"$OUT/nopriv.txt" 2>&1
	rc=$?
	cat "$OUT/nopriv.txt"
	fl_check_eq "unprivileged serve exits 1" $rc 1
	fl_check_eq "unprivileged serve says so in one line" "$(wc -l <"$OUT/nopriv.txt")" 1
fi
fl_done
