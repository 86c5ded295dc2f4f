# mmap_lock wait / hold counts driven exactly (issue 18, section 1):
# `provoke stack-grow N` (tests/helpers/provoke.c) makes N faults below a
# MAP_GROWSDOWN VMA.  Each, in lock_mm_and_find_vma (mm/memory.c, 6.12 and
# the 6.1.37+ backport): mmap_read_trylock (a read hold, released when
# upgrade_mmap_lock_carefully drops it), mmap_write_lock_killable (a write
# wait and, until mmap_write_downgrade, a write hold), then the fault is
# handled under the downgraded read lock (a second read hold).  Recorded
# with N and 2N, the differences must be exactly:
#   mmap_lock_wait_write.count  N
#   mmap_lock_hold_write.count  N   (the write hold ends at the downgrade)
#   mmap_lock_hold_read.count   2N
# for -b bpf --tier fentry and -b kmod (6.1: with --mmap-lock, off by
# default there).
#
# Found by this scenario: the BPF tiers dropped the write hold that ends at
# mmap_write_downgrade (the acquire_returned(read) the downgrade emits
# overwrote the hold in flight; module/probes.c recorded it).  Fixed by the
# shared mmap_lock state machine (include/faultline/mmaplock.h): bpf's
# hold_write difference is N like the module's.
# kernels: 6.12 6.1
# smp: 1
# timeout: 600
. /fl/lib.sh
export PATH=/fl:$PATH
N=${1:-200}
[ -x /fl/provoke ] || fl_skip "tests/helpers/provoke not built"
echo 0 >/proc/sys/kernel/randomize_va_space
raw() { sed -n "s/^$2=//p" "$1" | head -1; }

run() {	# LABEL RECORD-OPTIONS
	for i in 1 2; do
		faultline record -q $2 -o /tmp/$1-$i.snap -- provoke stack-grow $((i * N)) >/out/$1-$i.txt 2>&1
		fl_check_eq "$1: record of provoke stack-grow $((i * N)) exit status" "$?" 0
		faultline report --raw /tmp/$1-$i.snap >/out/$1-$i.raw 2>&1
	done
	d() {
		a=$(raw /out/$1-1.raw $2) b=$(raw /out/$1-2.raw $2)
		if fl_isnum "$a" && fl_isnum "$b"; then echo $((b - a)); else echo "$a/$b"; fi
	}
	fl_check_eq "$1 stack-grow: mmap_lock_wait_write.count (run 2N - run N)" "$(d $1 mmap_lock_wait_write.count)" $N
	fl_check_eq "$1 stack-grow: mmap_lock_hold_write.count (run 2N - run N)" "$(d $1 mmap_lock_hold_write.count)" $N
	fl_check_eq "$1 stack-grow: mmap_lock_hold_read.count (run 2N - run N)" "$(d $1 mmap_lock_hold_read.count)" $((2 * N))
}

if [ "$FL_SERIES" = 6.1 ]; then run bpf "-b bpf --tier fentry --mmap-lock"
else run bpf "-b bpf --tier fentry"; fi
if [ -f /fl/faultline.ko ]; then
	fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
	if [ "$FL_SERIES" = 6.1 ]; then run kmod "-b kmod --mmap-lock"; else run kmod "-b kmod"; fi
	rmmod faultline
else
	fl_skip_check "kmod mmap_lock counts" "no /fl/faultline.ko in this box"
fi
fl_done
