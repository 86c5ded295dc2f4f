# pft's fault shapes (issue 17) on tmpfs (a memfd) and on ext4 (a real
# filesystem: an image on a virtio block device, # ext4: below), base pages.
# For each backing and shape (private-write, shared-write, read; anonymous
# beside them for reference), pft -t 2 --json --strict:
#   - pft's expected count: pages for the write shapes, fault-around windows
#     for --read (fault_around_bytes from debugfs, which /init mounts)
#   - minor faults counted by pft = the expected count (+-1 %, --strict exit 0)
#   - the kernel's /proc/vmstat pgfault delta around pft, less the constant
#     cost of a pft start (a 16-page run of the same shape measured first),
#     = the expected count +-1 %
#   - --read again with fault_around_bytes = 4096: one fault per page
# Then, per shape, `faultline record --tier fentry` and the lockless-path
# outcomes (report --raw):
#   - 6.12 (per-VMA locks): every shape attempts the per-VMA path on ~every
#     fault and succeeds there (see the comment at the checks for where
#     mm/memory.c says so); what succeeded / fell back is written per shape
#     to /out/lockless-shapes.txt
#   - 6.1: no lockless path: lockless figures "absent", never 0
# and the reasons of a cold file's shared-write fallbacks (6.12, below).
# Last, a small pft-sweep per PFT_SHAPE and `faultline compare` of two of
# them, which names the shape (sweep.conf's PFT_SHAPE).
# kernels: 6.12 6.1
# smp: 2
# mem: 1024
# ext4: 384
# timeout: 900
. /fl/lib.sh
export PATH="/fl:$PATH"

W=64m; WPAGES=16384	# write shapes: 16384 faults
R=256m			# read: 65536 pages, 4096 faults with 64 KiB fault-around

json_num() { echo "$1" | sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p"; }
json_str() { echo "$1" | sed -n "s/.*\"$2\":\"\([^\"]*\)\".*/\1/p"; }
isnum() { case $1 in ''|*[!0-9]*) return 1 ;; esac; return 0; }

if [ -n "$FL_EXT4" ] && grep -q " /mnt/ext4 ext4 " /proc/mounts; then
	fl_pass "ext4 image mounted at $FL_EXT4"
	BACKINGS="tmpfs ext4"
else
	fl_fail "ext4 image not mounted (the scenario needs '# ext4: MB')"
	BACKINGS=tmpfs
fi
FA=/sys/kernel/debug/fault_around_bytes
fa_old=$(cat $FA 2>/dev/null)
fl_check_eq "fault_around_bytes readable (debugfs)" "$fa_old" 65536

backing_opt() { [ "$1" = tmpfs ] && echo --tmpfs || echo "--file $FL_EXT4/pft.dat"; }

# pft_vm LABEL SIZE OPTS...: one pft run checked three ways
pft_vm() {
	label=$1 size=$2; shift 2
	b0=$(vmstat_get pgfault)
	base=$(pft -m 64k -t 2 --json "$@" 2>/dev/null)
	b1=$(vmstat_get pgfault)
	overhead=$(( b1 - b0 - $(json_num "$base" expected_faults) ))
	before=$(vmstat_get pgfault)
	out=$(pft -m "$size" -t 2 --json --strict "$@" 2>/out/pft_err.txt)
	rc=$?
	after=$(vmstat_get pgfault)
	echo "$out" >>/out/pft_shapes.json
	cat /out/pft_err.txt
	exp=$(json_num "$out" expected_faults)
	min=$(json_num "$out" minflt)
	vm=$(( after - before - overhead ))
	echo "$label: pages $(json_num "$out" pages) expected $exp minflt $min" \
		"vmstat $((after - before)) - start cost $overhead = $vm" | tee -a /out/figures.txt
	fl_check_eq "$label: pft --strict exit status" "$rc" 0
	fl_check_eq "$label: shape in --json" "$(json_str "$out" shape)" "$SHAPE_NAME"
	fl_check_eq "$label: majflt (page cache prepared)" "$(json_num "$out" majflt)" 0
	fl_check_within "$label: pft minflt vs expected" "$min" "$exp" 1
	fl_check_within "$label: vmstat pgfault delta vs expected" "$vm" "$exp" 1
}

for b in $BACKINGS; do
	bo=$(backing_opt "$b")
	for shape in private-write shared-write read; do
		SHAPE_NAME=$shape
		if [ $shape = read ]; then
			pft_vm "$b $shape" $R $bo --$shape
			fl_check_eq "$b read: expected = 65536 pages / 16 (+1 window per unaligned start)" \
				"$(( $(json_num "$out" expected_faults) / 4096 ))" 1
		else
			pft_vm "$b $shape" $W $bo --$shape
			fl_check_eq "$b $shape: expected = pages" "$exp" $WPAGES
		fi
	done
	# fault-around off: a read maps one page per fault
	if echo 4096 >$FA 2>/dev/null; then
		SHAPE_NAME=read
		pft_vm "$b read, fault_around_bytes=4096" $W $bo --read
		fl_check_eq "$b read without fault-around: expected = pages" "$exp" $WPAGES
		echo "$fa_old" >$FA
	else
		fl_fail "$b: could not set $FA"
	fi
done
SHAPE_NAME=anon
pft_vm "anon" $W

# The lockless path per shape under the fentry tier.
: >/out/lockless-shapes.txt
for b in $BACKINGS; do
	bo=$(backing_opt "$b")
	for shape in anon private-write shared-write read; do
		label="$b $shape"
		if [ $shape = anon ]; then
			[ $b = tmpfs ] || continue
			label=anon; opts=""; size=$W
		else
			opts="$bo --$shape"; size=$W
			[ $shape = read ] && size=$R
		fi
		snap=/out/rec-$b-$shape.snap
		# shellcheck disable=SC2086
		faultline record -q --tier fentry -o $snap -- pft -m $size -t 2 --strict $opts \
			>/out/rec-$b-$shape.txt 2>&1
		fl_check_eq "$label: record (fentry) around pft --strict" "$?" 0
		if ! faultline report --raw $snap >/out/raw-$b-$shape.txt 2>&1; then
			fl_fail "$label: report --raw failed"
			continue
		fi
		r=/out/raw-$b-$shape.txt
		user=$(fl_raw $r faults_user)
		att=$(fl_raw $r lockless_attempted)
		ok=$(fl_raw $r lockless_succeeded)
		ab=$(fl_raw $r lockless_aborted)
		re=$(fl_raw $r lockless_retried)
		echo "$FL_SERIES $label: user faults $user, lockless attempted $att succeeded $ok" \
			"aborted $ab retried(fell back) $re" | tee -a /out/lockless-shapes.txt
		if [ "$FL_SERIES" = 6.1 ]; then
			fl_check_eq "$label: lockless kind (6.1)" "$(fl_raw $r lockless_kind)" none
			case $att in
			absent*) fl_pass "$label: lockless figures absent on 6.1 ($att)" ;;
			*) fl_fail "$label: lockless figures on 6.1: expected 'absent...', got '$att'" ;;
			esac
			continue
		fi
		fl_check_eq "$label: lockless kind" "$(fl_raw $r lockless_kind)" per-vma-lock
		if ! isnum "$att" || ! isnum "$ok" || ! isnum "$ab" || ! isnum "$re"; then
			fl_fail "$label: lockless figures are not numbers"
			continue
		fi
		fl_check_eq "$label: succeeded + aborted + retried = attempted" $((ok + ab + re)) "$att"
		fl_check_within "$label: lockless attempts vs user faults" "$att" "$user" 1
		# 6.12, mm/memory.c: lock_vma_under_rcu() refuses no VMA kind (the
		# 6.4 !vma_is_anonymous() refusal is gone); do_read_fault() runs
		# do_fault_around() under the VMA lock; vmf_can_call_fault() lets
		# ->fault run under it when vm_ops has ->map_pages (ext4_file_vm_ops
		# and shmem_vm_ops both have filemap_map_pages); do_cow_fault()'s
		# vmf_anon_prepare() (__vmf_anon_prepare) only needs the anon_vma
		# once per VMA and takes it with mmap_read_trylock() instead of
		# retrying; do_shared_fault() calls ->page_mkwrite under the VMA
		# lock.  With the page cache populated (no I/O, so filemap_fault()
		# never drops the lock for it) every shape succeeds on the per-VMA
		# path: falls back (retried) at most a handful of faults.
		fl_check_within "$label: succeeded on the per-VMA path vs attempted" "$ok" "$att" 1
		lim=$((att / 100 + 4))
		if [ $((re + ab)) -le $lim ]; then
			fl_pass "$label: fell back (retried) + aborted: at most $lim, got $((re + ab))"
		else
			fl_fail "$label: fell back (retried) + aborted: expected at most $lim, got $((re + ab))"
		fi
	done
done
cat /out/lockless-shapes.txt

# Why shared writes to a cold ext4 file fall back (will-it-scale page_fault3's
# case, 6.12): filemap_fault drops the VMA lock for the readahead I/O and
# returns VM_FAULT_RETRY.  A shared mapping never takes an anon_vma, so each
# such retry's reason is "other" (classify.h fl_ev_ll_why) -- not "unread",
# which every one of them was while the reason waited for the redo (its
# redo ends with the lock dropped: 128 of 132 unread, 16m, fentry and kmod).
if [ "$FL_SERIES" != 6.1 ] && [ -n "$FL_EXT4" ]; then
	faultline record -q --tier fentry -o /out/rec-cold.snap -- \
		pft -m 16m -t 2 --file $FL_EXT4/cold.dat --cold --shared-write >/out/rec-cold.txt 2>&1
	fl_check_eq "cold shared-write: record (fentry) around pft" "$?" 0
	faultline report --raw /out/rec-cold.snap >/out/raw-cold.txt 2>&1
	r=/out/raw-cold.txt
	echo "cold shared-write: retried $(fl_raw $r lockless_retried), other $(fl_raw $r lockless_retry_other)," \
		"no anon_vma $(fl_raw $r lockless_retry_anon_vma), unread $(fl_raw $r lockless_unread)"
	fl_check_ge "cold shared-write: per-VMA-lock retries (readahead I/O)" "$(fl_raw $r lockless_retried)" 1
	fl_check_eq "cold shared-write: every retry's reason is other" \
		"$(fl_raw $r lockless_retry_other)" "$(fl_raw $r lockless_retried)"
	fl_check_eq "cold shared-write: no reason left unread" "$(fl_raw $r lockless_unread)" 0
	rm -f $FL_EXT4/cold.dat
fi

# A small sweep per shape (pft-sweep's PFT_SHAPE; 1 and 2 clients, one
# iteration each, on ext4 where it is mounted), and compare naming the shape.
for shape in anon private-write shared-write read; do
	d=/out/sweep-$shape
	file=
	[ $shape != anon ] && [ -n "$FL_EXT4" ] && file=$FL_EXT4/sweep.dat
	PFT_SHAPE=$shape PFT_FILE=$file PFT_ITERATIONS=1 PFT_MAPPING_SIZE=16m \
		PFT_MAX_CLIENTS=2 pft-sweep -o $d >/dev/null 2>/out/sweep-$shape.err
	fl_check_eq "sweep PFT_SHAPE=$shape exit status" "$?" 0
	fl_check_cmd "sweep $shape: sweep.conf PFT_SHAPE" grep -qx "PFT_SHAPE=$shape" $d/sweep.conf
	fl_check_eq "sweep $shape: classic lines" "$(cat $d/pft-1.log $d/pft-2.log | awk 'NF == 8' | wc -l)" 2
	# pft's own stderr goes to RESULTS/sweep.err (absent when empty)
	if cat /out/sweep-$shape.err $d/sweep.err 2>/dev/null | grep -q "minor faults measured"; then
		fl_fail "sweep $shape: pft's honesty check warned: $(grep -h "minor faults" $d/sweep.err | head -1)"
	else
		fl_pass "sweep $shape: no honesty warning"
	fi
done
# two shapes are two workloads: refused with one line naming both, unless
# --any-shape, which labels each side with its shape
faultline compare /out/sweep-anon /out/sweep-read >/out/compare-refused.txt 2>&1
fl_check_eq "compare anon vs read sweeps refused" "$?" 1
fl_check_eq "the refusal is one line" "$(wc -l </out/compare-refused.txt)" 1
fl_check_cmd "the refusal names both shapes" grep -q "is pft shape anon, B .* is read/" /out/compare-refused.txt
faultline compare --any-shape /out/sweep-anon /out/sweep-read >/out/compare-anon-read.txt 2>&1
fl_check_eq "compare --any-shape anon vs read sweeps" "$?" 0
fl_check_cmd "compare names shape A" grep -q "^Shape: anon" /out/compare-anon-read.txt
fl_check_cmd "compare names shape B" grep -q "^Shape: read/" /out/compare-anon-read.txt
rm -f "$FL_EXT4/pft.dat" "$FL_EXT4/sweep.dat"
fl_done
