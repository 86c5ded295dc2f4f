# The test box half of tests/host/serve_prom_box.sh (not a scenario of its
# own: it needs the host's Prometheus): `faultline serve --listen
# 0.0.0.0:GPORT` on a held process running pft -m 64m, scraped every second
# by the host's Prometheus through the QEMU port forward, first with
# --tier fentry (run label "fentry", beside a `record -p` of the same
# process), then with -b kmod (run label "kmod").  For each, once the guest
# has the final counts and the host's Prometheus has scraped them (asked
# through 10.0.2.2, the host's loopback), it leaves what the host compares
# against in /out: RUN.prom (its own last scrape), RUN-report.txt (`report
# --raw` of the record, or the module's summary), RUN-serve-report.txt
# (`report --raw` of the snapshot serve wrote at exit, -o).  The verdicts on
# the Prometheus side are the host's.
#   serve_prom_box.sh PROMPORT GUESTPORT
. /fl/lib.sh
. /fl/kmod.inc
. /fl/serve.inc
export PATH=/fl:$PATH
PPORT=${1:?prometheus port}
GPORT=${2:?guest port}
URL=http://127.0.0.1:$GPORT/metrics
[ -n "$FL_HOST" ] || fl_fail "no network (tools/testbox/run --hostfwd)"

# the value of the first sample of a PromQL instant query, "none" if empty
pq() {
	q=$(printf '%s' "$1" | sed 's/%/%25/g; s/ /%20/g; s/"/%22/g; s/{/%7B/g; s/}/%7D/g; s/=/%3D/g;
		s/,/%2C/g; s/\[/%5B/g; s/\]/%5D/g; s/(/%28/g; s/)/%29/g; s/+/%2B/g')
	wget -q -O - "http://$FL_HOST:$PPORT/api/v1/query?query=$q" 2>/dev/null |
		sed -n 's/.*"value":\[[^,]*,"\([^"]*\)"\].*/\1/p'
}
# until the host's Prometheus has a sample of RUN's counter equal to WANT
# (or any sample when WANT is empty); generous: a busy host's TCG is slow
prom_has() {  # RUN WANT
	i=0
	while [ $i -lt 300 ]; do
		v=$(pq "faultline_faults_total{run=\"$1\",mode=\"user\"}")
		[ -n "$v" ] && { [ -z "$2" ] || [ "$v" = "$2" ]; } && return 0
		sleep 1
		i=$((i + 1))
	done
	return 1
}

one() {  # RUN SERVE-OPTS...
	run=$1
	shift
	echo "=== $run"
	held_pft "$run"
	faultline serve "$@" --run "$run" -p $HOLD -i 1 --listen 0.0.0.0:$GPORT \
		-o /out/$run-serve.snap >/out/serve-$run.txt 2>&1 &
	S=$!
	if [ "$run" = fentry ]; then
		faultline record -q --tier fentry -p $HOLD -o /out/rec.snap >/out/record.txt 2>&1 &
		R=$!
	fi
	prom_has "$run" ""
	fl_check_eq "$run: the host's Prometheus scrapes serve through the forward" $? 0
	sleep 2
	echo go >/tmp/go
	wait $HOLD
	fl_check_eq "$run: pft exits 0" $? 0
	if [ "$run" = fentry ]; then
		wait $R
		fl_check_eq "$run: record -p exits 0" $? 0
		faultline report --raw /out/rec.snap >/out/fentry-report.txt
	else
		kmod_save_summary /out/kmod-report.txt
	fi
	settle /out/$run.prom 60
	fl_check_eq "$run: serve's counter settles" $? 0
	got=$(faults_user /out/$run.prom)
	prom_has "$run" "$got"
	fl_check_eq "$run: the host's Prometheus has serve's last count ($got)" $? 0
	cat /out/serve-$run.txt
	kill -TERM $S
	wait $S
	fl_check_eq "$run: serve exits 0 on SIGTERM" $? 0
	# what serve served, as a snapshot: the same counts as its last scrape
	faultline report --raw /out/$run-serve.snap >/out/$run-serve-report.txt
	fl_check_eq "$run: report reads serve's -o snapshot" $? 0
	fl_check_eq "$run: serve's snapshot has its last scrape's count" \
		"$(sed -n 's/^faults_user=//p' /out/$run-serve-report.txt)" "$got"
}

# --prom-buckets full: the host side compares quantiles bucket for bucket
# with report's (the histogram's own 272, not serve's coarse default)
one fentry --tier fentry --prom-buckets full
if [ -f /fl/faultline.ko ] && insmod /fl/faultline.ko; then
	one kmod -b kmod --prom-buckets full
	rmmod faultline
else
	fl_fail "kmod: no /fl/faultline.ko or insmod failed"
fi
fl_done
