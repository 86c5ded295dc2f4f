# The two backends count mmap_lock alike (include/faultline/mmaplock.h):
# runs of tests/helpers/mmlock, each recorded at the same time by
# `record -b kmod -p` and `record -b bpf -p`, so both see the very same
# events, contention included.  Every mmap_lock figure (wait/hold sample
# counts, contended, trylock failures) agrees within 1 %.  The downgrades
# show: -m munmap (munmap: mmap_write_downgrade) has N more read holds than
# -m fixed (the same locks, freed without a downgrade), and every write lock
# closes one write hold.  -m contend (populate + munmap beside a thread
# that maps in a loop) must show contention.  And the module's summary
# names its figures as report --raw does.
# kernels: 6.12 6.1 7.3
# boot: shared
# smp: 2
# timeout: 600
. /fl/lib.sh
. /fl/kmod.inc
N=${1:-400}
C=${2:-40}
[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
[ -x /fl/faultline ] || fl_skip "user/faultline not built"
[ -x /fl/mmlock ] || fl_skip "tests/helpers/mmlock not built"

FIGS="mmap_lock_wait_read.count mmap_lock_wait_write.count mmap_lock_hold_read.count
mmap_lock_hold_write.count mmap_lock_contended.count mmap_lock_contended
mmap_lock_trylock_failed"

# rec MODE: mmlock -m MODE recorded by both backends at once -> /out/MODE-{kmod,bpf}.txt
rec() {
	mode=$1
	rm -f /tmp/go && mkfifo /tmp/go || { fl_fail "mkfifo"; return 1; }
	/fl/mmlock -s /tmp/go -m "$mode" -n "$N" -c "$C" >/out/mmlock-$mode.txt 2>&1 &
	pid=$!
	/fl/faultline record -b kmod --mmap-lock -p $pid -o /tmp/$mode-kmod.snap \
		>/out/rec-$mode-kmod.txt 2>&1 &
	kp=$!
	/fl/faultline record -b bpf --mmap-lock -p $pid -o /tmp/$mode-bpf.snap \
		>/out/rec-$mode-bpf.txt 2>&1 &
	bp=$!
	i=0	# both attached: each says "tracing" once armed
	while [ $i -lt 60 ] && ! { grep -q tracing /out/rec-$mode-kmod.txt &&
				    grep -q tracing /out/rec-$mode-bpf.txt; }; do
		sleep 1; i=$((i + 1))
	done
	grep -q tracing /out/rec-$mode-kmod.txt || fl_fail "$mode: record -b kmod -p never started"
	grep -q tracing /out/rec-$mode-bpf.txt || fl_fail "$mode: record -b bpf -p never started"
	sleep 1
	echo go >/tmp/go
	wait $kp; krc=$?
	wait $bp; brc=$?
	wait $pid; prc=$?
	cat /out/mmlock-$mode.txt /out/rec-$mode-kmod.txt /out/rec-$mode-bpf.txt
	fl_check_eq "$mode: mmlock exit status" $prc 0
	fl_check_eq "$mode: record -b kmod -p exit status" $krc 0
	fl_check_eq "$mode: record -b bpf -p exit status" $brc 0
	for b in kmod bpf; do
		/fl/faultline report --raw /tmp/$mode-$b.snap >/out/$mode-$b.txt ||
			fl_fail "$mode: report --raw ($b)"
	done
	fl_check_eq "$mode: kmod snapshot backend" "$(fl_raw /out/$mode-kmod.txt backend)" kmod
	fl_check_eq "$mode: bpf snapshot backend" "$(fl_raw /out/$mode-bpf.txt backend)" bpf
	fl_check_eq "$mode: kmod filter is mmlock" "$(fl_raw /out/$mode-kmod.txt filter_tgid)" $pid
	fl_check_eq "$mode: bpf filter is mmlock" "$(fl_raw /out/$mode-bpf.txt filter_tgid)" $pid
	# the same events: every mmap_lock figure within 1 %
	for f in $FIGS; do
		k=$(fl_raw /out/$mode-kmod.txt $f) b=$(fl_raw /out/$mode-bpf.txt $f)
		echo "$mode $f kmod=$k bpf=$b" >>/out/figures.txt
		fl_check_within "$mode: $f bpf vs kmod" "$b" "$k" 1
	done
	for b in kmod bpf; do
		r=/out/$mode-$b.txt
		fl_check_eq "$mode $b: events_missed" "$(fl_raw $r events_missed)" 0
		# every write lock (all take start_locking) closes one write hold,
		# by mmap_write_unlock or by mmap_write_downgrade
		fl_check_within "$mode $b: write holds vs write locks" \
			"$(fl_raw $r mmap_lock_hold_write.count)" "$(fl_raw $r mmap_lock_wait_write.count)" 1
	done
}

# probes: how many probes mmlock -m contend made
probes() { sed -n 's/.* probes=\([0-9]*\).*/\1/p' /out/mmlock-contend.txt; }

fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
: >/out/figures.txt
rec munmap
rec fixed
rec contend
cat /out/figures.txt

for b in kmod bpf; do
	# 3 write locks a round (mmap, mprotect, munmap or MAP_FIXED mmap)
	for m in munmap fixed; do
		fl_check_ge "$m $b: write locks" "$(fl_raw /out/$m-$b.txt mmap_lock_wait_write.count)" \
			$((3 * N))
	done
	# The downgrade: the modes differ only in munmap's mmap_write_downgrade,
	# one a round, so munmap has N more read holds (each downgrade starts one).
	hm=$(fl_raw /out/munmap-$b.txt mmap_lock_hold_read.count)
	hf=$(fl_raw /out/fixed-$b.txt mmap_lock_hold_read.count)
	fl_check_within "$b: read holds, munmap - fixed = rounds (downgrades)" \
		$((hm - hf)) "$N" 1
	fl_check_within "$b: write locks, munmap vs fixed (the same locks)" \
		"$(fl_raw /out/munmap-$b.txt mmap_lock_wait_write.count)" \
		"$(fl_raw /out/fixed-$b.txt mmap_lock_wait_write.count)" 1
	# contend: 2 write locks per probe, 5 per round
	fl_check_ge "contend $b: write locks" "$(fl_raw /out/contend-$b.txt mmap_lock_wait_write.count)" \
		$((2 * $(probes) + 5 * C))
	# up to the scheduler, but far from the edge: 78 and 107 contended,
	# 789 and 3470 trylock failures seen (6.12, 6.1) with 40 rounds
	fl_check_ge "contend $b: contended" "$(fl_raw /out/contend-$b.txt mmap_lock_contended)" 1
	fl_check_ge "contend $b: trylock failures" \
		"$(fl_raw /out/contend-$b.txt mmap_lock_trylock_failed)" 1
	fl_check_ge "contend $b: contention samples" \
		"$(fl_raw /out/contend-$b.txt mmap_lock_contended.count)" 1
done
case $FL_SERIES in
6.1)	# faults take mmap_lock there: a read trylock (and hold) per fault
	for b in kmod bpf; do
		fl_check_ge "6.1 $b: read holds >= faults" \
			"$(fl_raw /out/fixed-$b.txt mmap_lock_hold_read.count)" $((64 * N))
	done ;;
esac

# One list of names: every figure the module's summary prints is a key of
# report --raw (counters and lockless outcomes as NAME=, histograms NAME.count=).
kmod_save_summary /out/summary.txt
awk '/^counters:/ { s = 1; next } /^lockless outcomes:/ { s = 2; next }
     /^histograms/ { s = 3; next } /^$/ { next }
     s && $1 !~ /^\(/ { print s, $1 }' /out/summary.txt >/tmp/names
fl_check_ge "summary lists figures" "$(wc -l </tmp/names)" 15
while read -r sec name; do
	key=$name; [ "$sec" = 3 ] && key=$name.count
	grep -q "^$key=" /out/munmap-kmod.txt ||
		fl_fail "module summary figure '$name' is not a report --raw key ($key)"
done </tmp/names
fl_pass "module summary names checked against report --raw ($(wc -l </tmp/names) figures)"
fl_check_cmd "rmmod faultline" rmmod faultline
fl_done
