# Holder attribution with the module backend (issue 16): `record -b kmod
# --blame` around blamewriter.  The module counts and times the faults; the
# holders come from blame's BPF skeleton, which loads beside it (the module
# has no holder hooks: Documentation/blame.rst).  Expected, from the
# helper's own counts and the kernel's: the snapshot is the module's, blame
# is attached, the writer's mprotect() row has one write hold per call and
# >= 90% of the faults' mmap_lock wait; the module's user faults are the
# faults blamewriter counts it made (+-1%: process start-up) and at most the
# system's pgfault delta; rmmod is clean.
# kernels: 6.12 6.1
# smp: 2
# timeout: 300
# args: 2 256 100
. /fl/lib.sh
. /fl/blame.inc
T=${1:-2} P=${2:-256} N=${3:-100}
[ -x /fl/blamewriter ] || fl_skip "blamewriter not in the box (make -C tests/helpers)"
[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko

before=$(vmstat_get pgfault)
faultline record -b kmod --blame -o /tmp/bk.snap -- blamewriter -t "$T" -p "$P" -n "$N" \
	>/out/record.txt 2>&1
rc=$?
after=$(vmstat_get pgfault)
cat /out/record.txt
fl_check_eq "record -b kmod --blame exit status" "$rc" 0
faultline report --raw /tmp/bk.snap >/out/raw.txt 2>&1
fl_check_eq "report --raw exit status" "$?" 0
kv() { blame_kv /out/raw.txt "$1"; }
fl_check_eq "backend" "$(kv backend)" kmod
fl_check_eq "blame" "$(kv blame)" tracepoint
wv() { grep '^writer_tid=' /out/record.txt | tr ' ' '\n' | sed -n "s/^$1=//p"; }
fu=$(kv faults_user)
fl_check_within "the module's user faults vs the faults blamewriter made" "$fu" "$(wv faults)" 1
fl_check_le "... at most the system's pgfault delta" "$fu" $((after - before))

calls=$(wv writer_calls)
fl_check_eq "writer made its calls" "$calls" "$N"
row=$(blame_row /out/raw.txt bl-writer "mprotect()")
[ -n "$row" ] && fl_pass "a row for mprotect() from bl-writer (row $row)" ||
	{ fl_fail "no row for mprotect() from bl-writer"; grep '^blame' /out/raw.txt; fl_done; }
fl_check_eq "write holds of the row == the writer's mprotect calls" "$(kv blame.row.$row.holds)" "$calls"
total=$(kv blame.wait_ns) mine=$(kv blame.row.$row.wait_ns)
echo "fault waits: $(kv blame.waits), ${total} ns; behind the writer: ${mine} ns"
fl_check_ge "fault mmap_lock waits seen" "$(kv blame.waits)" 5
fl_check_ge "share of the faults' mmap_lock wait behind the writer (per mille)" \
	$((total ? mine * 1000 / total : 0)) 900
fl_check_cmd "rmmod faultline" rmmod faultline
fl_done
