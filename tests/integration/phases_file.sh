# The phases of a file fault (issue 17): `faultline record --phases` around
# pft's file shapes on tmpfs and ext4, checked through `report --raw`:
#   pagecache  __do_fault (page-cache lookup), read (filling the page cache:
#   readahead -- a major fault's read-around calls page_cache_ra_order, 5.10
#   do_page_cache_ra, directly -- read_folio, waiting for the read), around (fault-around:
#   filemap_map_pages), cow_copy (do_cow_fault's copy).
# Expectations are computed here, not by faultline: pft's page count and
# fault-around windows (--json), a 16-page run of the same shape under the
# same record (what pft's start-up and exit add: its own .data COW copies,
# its text's read faults), /proc/vmstat pgmajfault, the disk's
# read_ahead_kb.  Per shape:
#   - private-write: one pagecache lookup and one cow_copy per page
#   - shared-write:  one pagecache lookup per fault, no copy beyond start-up;
#     a fault per page up to 6.12 (finish_fault maps one page: a whole
#     folio only for anonymous shmem, and ext4 has no large folios), on 7.3
#     ext4 one per folio: ext4 caches the file in large folios (pft writes it
#     64 KiB at a time) and finish_fault maps the whole folio, 16 pages a
#     fault (test box function_graph: set_pte_range of 16 pages) -- there the
#     faults are pft's (its rusage: the kernel's count), fewer than the pages
#   - read (warm):   one around per fault-around window, no copy, no read
#   - read --cold (ext4): pgmajfault rose; faults with a read phase >= the
#     readahead windows the file needs (its size / read_ahead_kb: a fault
#     starts at most one window), no copy
# and for every run: overrun 0, the phases' time sums <= the fault latency
# sum, the file phases available (named in no phases.unavailable).
# 5.10: no filemap_read_folio / __folio_lock_or_retry (__lock_page_or_retry
# instead), and an ext4 shared write is retried once (below).
# A major fault's read-around is page_cache_ra_order (do_page_cache_ra on
# 5.10), called directly: without that hook its fault had a read phase only
# when it then waited for a locked folio.  7.3's box (read_ahead_kb 8192, 2
# windows) has no such wait, so 1 fault with one for 2 windows; 6.12's
# (read_ahead_kb 128: 128 windows) passed on its asynchronous ones.
# kernels: 6.12 6.1 5.10 7.3
# smp: 2
# mem: 1024
# ext4: 128
# timeout: 900
. /fl/lib.sh
export PATH="/fl:$PATH"

SIZE=16m; PAGES=4096

# which of the file-fault functions this kernel lets fentry attach to (BTF
# and ftrace's list); the inlined ones are the reason for the hooks used
AFF=/sys/kernel/tracing/available_filter_functions
[ -r $AFF ] || AFF=/sys/kernel/debug/tracing/available_filter_functions
# read once: the kernel formats each of its ~60k lines on every read
cat $AFF >/tmp/aff 2>/dev/null
AFF=/tmp/aff
for f in __do_fault filemap_fault finish_fault filemap_map_pages page_cache_sync_ra \
	 page_cache_async_ra page_cache_ra_order do_page_cache_ra \
	 filemap_read_folio __folio_lock_or_retry __lock_page_or_retry \
	 do_read_fault \
	 do_cow_fault do_shared_fault do_fault_around wp_page_copy __wp_page_copy_user \
	 copy_mc_user_highpage copy_user_highpage copy_page folio_copy; do
	grep -qE "^$f( |$)" $AFF && echo "ftrace: $f" || echo "ftrace: $f not traceable"
done | tee /out/hooks.txt
case $FL_SERIES in
5.10)	READ_HOOKS="do_page_cache_ra __lock_page_or_retry" ;;	# hooks.rst: 5.10 predates the folio names
*)	READ_HOOKS="page_cache_ra_order filemap_read_folio __folio_lock_or_retry" ;;
esac
for f in __do_fault finish_fault filemap_map_pages page_cache_sync_ra page_cache_async_ra \
	 $READ_HOOKS; do
	grep -qx "ftrace: $f" /out/hooks.txt && fl_pass "$f traceable" || fl_fail "$f not traceable"
done

json_num() { echo "$1" | sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p"; }
kv() { sed -n "s/^$2=//p" "$1" | head -1; }
# the faults pft measured (its rusage: the kernel's count), minor + major
pft_faults() { echo $(( $(json_num "$PFT" minflt) + $(json_num "$PFT" majflt) )); }
num() { v=$(kv "$1" "$2"); echo "${v:-0}"; }

if [ -n "$FL_EXT4" ] && grep -q " /mnt/ext4 ext4 " /proc/mounts; then
	BACKINGS="tmpfs ext4"
else
	fl_fail "ext4 image not mounted (the scenario needs '# ext4: MB')"
	BACKINGS=tmpfs
fi
backing_opt() { [ "$1" = tmpfs ] && echo --tmpfs || echo "--file $FL_EXT4/pft-$2.dat"; }

# rec LABEL SIZE OPTS...: record --phases around pft; raw keys in /out/LABEL.raw,
# pft's --json in PFT, the pgmajfault delta in MAJ
rec() {
	label=$1 size=$2; shift 2
	snap=/out/$label.snap
	m0=$(vmstat_get pgmajfault)
	faultline record -q --tier fentry --phases -o "$snap" -- \
		pft -m "$size" -t 1 --json "$@" >/out/$label.json 2>/out/$label.err
	rc=$?
	m1=$(vmstat_get pgmajfault)
	MAJ=$((m1 - m0))
	PFT=$(grep '^{' /out/$label.json | tail -1)
	fl_check_eq "$label: record --phases around pft" "$rc" 0
	[ $rc = 0 ] || cat /out/$label.err
	faultline report --raw "$snap" >/out/$label.raw 2>&1
	fl_check_eq "$label: report --raw" "$?" 0
	R=/out/$label.raw
}

# the checks every run gets
common() {
	label=$1
	case $(kv $R phases) in
	fentry*) ;;
	*) fl_fail "$label: phases recorded: '$(kv $R phases)'"; return ;;
	esac
	fl_check_eq "$label: overrun" "$(num $R phases.overrun)" 0
	sum=0
	for ph in lockless mmap_wait alloc zero memcg ptl lru rest pagecache read around cow_copy; do
		sum=$((sum + $(num $R phase.$ph.sum_ns)))
	done
	lat=$(num $R phases.lat_sum_ns)
	fl_check_le "$label: sum of the phases' time <= fault latency sum ($lat ns)" "$sum" "$lat"
	fl_check_eq "$label: phases' sum + unattributed = latency sum" \
		$((sum + $(num $R phases.unattributed_sum_ns))) "$lat"
	for ph in pagecache read around cow_copy; do
		case $(kv $R phase.$ph) in
		unavailable*) fl_fail "$label: $ph $(kv $R phase.$ph)" ;;
		*) fl_isnum "$(kv $R phase.$ph.count)" &&
			fl_pass "$label: $ph available (count $(kv $R phase.$ph.count))" ||
			fl_fail "$label: $ph: no phase.$ph.count" ;;
		esac
	done
}

figure() {
	echo "$1: pages $(json_num "$PFT" pages) expected $(json_num "$PFT" expected_faults)" \
		"faults $(num $R phases.faults) pagecache $(num $R phase.pagecache.count)" \
		"read $(num $R phase.read.count) around $(num $R phase.around.count)" \
		"cow_copy $(num $R phase.cow_copy.count) pgmajfault +$MAJ" \
		"lat_sum $(num $R phases.lat_sum_ns) unattrib $(num $R phases.unattributed_sum_ns)" \
		| tee -a /out/figures.txt
}

for b in $BACKINGS; do
	for shape in private-write shared-write read; do
		L="$b-$shape"
		# start-up: the same shape on 16 pages
		rec "$L-16" 16P $(backing_opt $b $shape) --$shape
		common "$L-16"
		c0=$(num $R phase.cow_copy.count); p0=$(num $R phase.pagecache.count)
		f0=$(pft_faults)
		a0=$(num $R phase.around.count); e0=$(json_num "$PFT" expected_faults)
		figure "$L-16"
		rec "$L" $SIZE $(backing_opt $b $shape) --$shape
		common "$L"
		figure "$L"
		pages=$(json_num "$PFT" pages)
		fl_check_eq "$L: pft pages" "$pages" $PAGES
		if [ "$FL_SERIES" = 5.10 ] && [ "$b" = ext4 ] && [ "$shape" = shared-write ]; then
			# 5.10's fault_dirty_shared_page drops mmap_lock for
			# balance_dirty_pages and returns VM_FAULT_RETRY (5.19 has
			# VM_FAULT_COMPLETED); the retry's FAULT_FLAG_TRIED counts
			# as major in the task's rusage (mm_account_fault), not in
			# vmstat: one retry and one rusage "major" per page
			fl_check_eq "$L: no storage read (page cache prepared): vmstat pgmajfault" "$MAJ" 0
			fl_check_within "$L: pft majflt = retried faults (5.10)" \
				"$(json_num "$PFT" majflt)" "$pages" 1
			fl_check_within "$L: handle_mm_fault calls - faults = one retry per page (5.10)" \
				$(($(num $R handle_mm_fault_calls) - $(num $R faults_user))) "$pages" 1
		else
			fl_check_eq "$L: no storage read (page cache prepared): pft majflt" \
				"$(json_num "$PFT" majflt)" 0
		fi
		fl_check_eq "$L: read phase (page cache prepared)" "$(num $R phase.read.count)" 0
		pc=$(num $R phase.pagecache.count); cc=$(num $R phase.cow_copy.count)
		ar=$(num $R phase.around.count)
		case $shape in
		private-write)
			# do_cow_fault: __do_fault, then the copy, once per page
			fl_check_within "$L: pagecache lookups vs pages (+ start-up $((p0 - 16)))" \
				$((pc - p0 + 16)) "$pages" 1
			fl_check_within "$L: cow copies vs pages (+ start-up $((c0 - 16)))" \
				$((cc - c0 + 16)) "$pages" 1
			;;
		shared-write)
			# one __do_fault per write fault: a fault per page,
			# 7.3 ext4 a fault per large folio (the header)
			flt=$pages flt0=16
			if [ "${FL_SERIES%%.*}" -ge 7 ] && [ $b = ext4 ]; then
				flt=$(pft_faults) flt0=$f0
				fl_check_le "$L: pft faults <= pages / 2 (whole large folios mapped)" \
					"$flt" $((pages / 2))
			fi
			fl_check_within "$L: pagecache lookups vs faults ($flt; start-up $((p0 - flt0)))" \
				$((pc - p0 + flt0)) "$flt" 1
			fl_check_le "$L: cow copies: start-up's only ($c0)" "$cc" $((c0 + 2))
			;;
		read)
			# do_read_fault: fault-around maps the window, the faulting
			# page among it: no __do_fault, no copy
			exp=$(json_num "$PFT" expected_faults)
			fl_check_within "$L: fault-arounds vs pft's windows ($exp; start-up $((a0 - e0)))" \
				$((ar - a0 + e0)) "$exp" 1
			fl_check_le "$L: cow copies: start-up's only ($c0)" "$cc" $((c0 + 2))
			;;
		esac
	done
done

# a cold read: the file's pages dropped after the fsync, faults read them
if [ -n "$FL_EXT4" ]; then
	L=ext4-read-cold
	dev=$(awk '$2 == "/mnt/ext4" { print $1 }' /proc/mounts)
	ra_kb=$(cat /sys/block/${dev#/dev/}/queue/read_ahead_kb 2>/dev/null)
	fl_check_ge "read_ahead_kb of ${dev#/dev/}" "${ra_kb:-0}" 4
	rec "$L" $SIZE --file "$FL_EXT4/pft-cold.dat" --read --cold
	common "$L"
	figure "$L"
	pages=$(json_num "$PFT" pages)
	rd=$(num $R phase.read.count)
	fl_check_ge "$L: pgmajfault rose (the file was read)" "$MAJ" 1
	fl_check_ge "$L: pft majflt" "$(json_num "$PFT" majflt)" 1
	# every window is started in a fault of pft (mmap is its only access):
	# the sync window of a major fault, or the async one at a minor fault
	# on the PG_readahead mark; filemap_fault starts at most one of them
	# (the async one only when the folio was found), and no window is
	# larger than read_ahead_kb
	win=$(( (pages * 4 + ra_kb - 1) / ra_kb ))
	fl_check_ge "$L: faults with a read phase >= readahead windows ($win of <= $ra_kb KiB)" \
		"$rd" $win
	fl_check_le "$L: faults with a read phase <= faults" "$rd" "$(num $R phases.faults)"
	fl_check_ge "$L: read time" "$(num $R phase.read.sum_ns)" 1
	fl_check_le "$L: cow copies (a read copies nothing)" "$(num $R phase.cow_copy.count)" 16
fi
fl_done
