# compare's EXPLAIN on real kernel data (issue 7): sweep A faults base pages,
# sweep B transparent huge pages (PFT_PAGESIZES=transhuge), both recorded
# with --phases --locks.  A huge-page fault zeroes 2 MiB: B's faults must be
# significantly slower, and EXPLAIN must put the added latency in the zero
# phase (folio_zero_user / clear_huge_page) and alloc (init_on_alloc zeroing),
# at every thread count.
# The direction and the phase are asserted, not times (TCG is emulated).
# Under -icount (guest time = guest instructions) on one vCPU, so the shares
# do not follow the host's load (6.1 boots only one vCPU under -icount):
# with a second guest beside it, zero's share on 6.1 had dropped to 0 under
# plain TCG.  On one vCPU the two threads preempt each other inside faults,
# which adds time outside alloc and zero: 60 %, not 70 (6.1: 69 at 2 threads).
# Size (issue 30): the time is the recordings, not the faults: each run's
# `record --phases --locks` attach costs ~5-7 guest s, its faults under 0.5
# (3 runs x 2 thread counts a side: 6.12 at 64m 40.5 + 39.8 guest s, 6.1
# at 128m 30.7 + 30.1), so a smaller size saves nothing and only fewer runs
# would.  3 runs were tried and are not enough: at 2 threads a preemption
# lands in a fault's 2 MiB clear or just after it, so the per-run shares
# scatter (6.1, 3 x 128m: alloc + zero 61.5, 68.6, 63.7 %, mean 64 against
# the >= 60 here; zero named at p = 0.0025; 6.12, 3 x 64m: 67 %, zero at
# p = 0.012, its per-run share 49.9, 37.5, 37.9 %).  A margin of ~2
# standard errors would fail about one boot in 50, so the runs stay 5.
# 7.3 (any 6.13+ with init_on_alloc on, as Debian builds it): the fault path
# no longer calls folio_zero_user() when init_on_alloc is on
# (user_alloc_needs_zeroing(), include/linux/mm.h): the allocator has zeroed
# the 2 MiB already (post_alloc_hook -> kernel_init_pages -> clear_page),
# and there post_alloc_hook is not traceable and clear_page_* inlined.  The
# whole clear is inside alloc, so record --phases marks zero unavailable,
# with that reason, rather than report 0: there report-B must say so,
# EXPLAIN must not name zero, and alloc alone must carry the 60 %.
# The box needs /boot/config-$(uname -r) to know init_on_alloc (testbox/run).
# -cpu max (ERMS on, not the box's default): the kernel clears with rep
# stosb, which icount counts a byte an instruction, as the figures above were
# measured; rep stosq would make the zero phase 8x fewer guest instructions.
# kernels: 6.12 6.1 7.3
# cpu: max
# smp: 1
# icount: yes
# timeout: 600
# args: 5 32m 4
. /fl/lib.sh
IT=${1:-5} SIZE=${2:-32m} IT_IN_ALLOC=${3:-4}
[ -x /fl/pft-sweep ] || fl_skip "pft-sweep not in the box"
echo madvise >/sys/kernel/mm/transparent_hugepage/enabled ||
	fl_skip "no transparent huge pages in this kernel"
# Where the allocator does all the zeroing (in_alloc, below) zero is
# unavailable and alloc carries 99-100 % of the added latency at both
# thread counts, far from the 60 % floor: the scatter that needs 5 runs is
# zero's share (above).  What remains is B slower at 2 threads by Welch's
# test: A's spread is ~1 % of B's, so t ~ sqrt(runs) / CV of B's per-run
# mean latency (df ~ runs - 1).  7.3, 5 runs: 1.14, 1.14, 0.81, 1.07, 1.16
# ms (CV 0.14, p 8.5e-05); 3 runs gave p = 0.017 (CV ~0.23): 3 fail at CV
# > 0.40 (t < 4.30), which a CV of 0.23 reaches about one boot in 20; 4
# fail at CV > 0.63 (t < 3.18, df 3), about one in 10^4.
# init_on_alloc: the command line's, else the kernel's config.
rel=$(uname -r)
ioa=
for w in $(cat /proc/cmdline); do
	case $w in init_on_alloc=*) ioa=${w#init_on_alloc=} ;; esac
done
if [ -z "$ioa" ] && [ -f "/boot/config-$rel" ]; then
	ioa=n
	grep -q '^CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y' "/boot/config-$rel" && ioa=y
fi
in_alloc=no
if awk -v r="$rel" 'BEGIN { split(r, v, "."); exit !(v[1] + 0 > 6 || (v[1] + 0 == 6 && v[2] + 0 >= 13)) }'; then
	case $ioa in
	[yY1]*|[oO][nN]*) in_alloc=yes ;;
	"") fl_fail "init_on_alloc of $rel readable in the box: no init_on_alloc= in /proc/cmdline, no /boot/config-$rel (tools/testbox/run copies it)" ;;
	esac
fi
echo "zeroing: $rel, init_on_alloc ${ioa:-unknown}: user pages zeroed in the allocator: $in_alloc"
[ "$in_alloc" = yes ] && IT=$IT_IN_ALLOC
export FAULTLINE_RECORD="faultline record -q --phases --locks -o"
up() { cut -d' ' -f1 /proc/uptime; }
for side in A:base B:transhuge; do
	t0=$(up)
	PFT_ITERATIONS=$IT PFT_MAPPING_SIZE=$SIZE PFT_MIN_CLIENTS=1 PFT_MAX_CLIENTS=2 \
	PFT_PAGESIZES=${side#*:} pft-sweep -o /tmp/${side%%:*} >/out/sweep-${side%%:*}.txt 2>&1
	fl_check_eq "pft-sweep ${side%%:*} (${side#*:}) exit status" "$?" 0
	# where the time goes (guest seconds: instructions under -icount)
	echo "time: sweep ${side%%:*} ($IT runs x 2 thread counts, $SIZE): $(awk -v a="$t0" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }') s guest"
done
for side in A B; do
	faultline report --phases /tmp/$side >/out/report-$side.txt 2>&1
	fl_check_eq "report --phases SWEEPDIR $side exit status" "$?" 0
	cat /out/report-$side.txt
done
# row of a thread count: threads runs faults/run latency lockless mmap_wait alloc zero ...
col() { awk -v t="$2" -v c="$3" '/^phases per thread count/ { on = 1; next } on && $1 == t { print $c; exit }' "$1"; }
faultline compare /tmp/A /tmp/B >/out/compare.txt 2>&1
fl_check_eq "compare exit status" "$?" 0
sed -n '/^\[\*\] EXPLAIN$/,/^$/p' /out/compare.txt
# the 2 MiB zeroing: folio_zero_user / clear_huge_page is *zero*; with
# init_on_alloc (Debian) the allocator zeroes the huge page as well, inside
# *alloc*.  EXPLAIN must name zero with a fair share (alloc is named too
# when its change passes the test); by the means, alloc + zero must carry
# most of the added latency.  Where the allocator does all the zeroing
# (6.13+ with init_on_alloc on, above) zero is unavailable and alloc alone
# carries it (init_on_alloc: read before the sweeps, above).
reason="the allocator zeroes (init_on_alloc), inside alloc: post_alloc_hook not traceable here"
for t in 1 2; do
	line=$(grep "^at $t thread" /out/compare.txt)
	case $line in
	"at $t thread"*", B's faults are "*" ns slower on average "*": "*"% of the added latency in B is "*)
		fl_pass "EXPLAIN at $t thread(s): B slower, phases named" ;;
	*) fl_fail "EXPLAIN at $t thread(s): expected 'B's faults are ... slower ...: N% of the added latency in B is ...', got '$line'" ;;
	esac
	if [ "$in_alloc" = yes ]; then
		fl_check_eq "report-B at $t thread(s): zero column" "$(col /out/report-B.txt $t 8)" "n/a"
		fl_check_eq "report-B at $t thread(s): zero unavailable, why" \
			"$(grep -F "$t threads: zero unavailable ($reason)" /out/report-B.txt)" \
			"$t threads: zero unavailable ($reason)"
		fl_check_eq "compare GAPS at $t thread(s): zero unavailable in B, why" \
			"$(grep -F "phase_zero_mean_$t (B): unavailable ($reason)" /out/compare.txt)" \
			"phase_zero_mean_$t (B): unavailable ($reason)"
		case $line in
		*" zero ("*) fl_fail "EXPLAIN at $t thread(s) names zero, which is unavailable: '$line'" ;;
		*) fl_pass "EXPLAIN at $t thread(s) does not name zero (unavailable)" ;;
		esac
		share=$(awk -v la="$(col /out/report-A.txt $t 4)" -v lb="$(col /out/report-B.txt $t 4)" \
			-v aa="$(col /out/report-A.txt $t 7)" -v ab="$(col /out/report-B.txt $t 7)" \
			'BEGIN { d = lb - la; if (d > 0) printf "%d", 100 * (ab - aa) / d; else print 0 }')
		fl_check_ge "alloc share of the added mean latency at $t thread(s) (%)" "$share" 60
		continue
	fi
	zero=$(echo "$line" | sed -n 's/.* \([0-9]*\)% \(of the added latency in B is \)\{0,1\}zero (+.*/\1/p')
	fl_check_ge "EXPLAIN at $t thread(s): zero's share of the added latency (%)" "${zero:-0}" 20
	share=$(awk -v la="$(col /out/report-A.txt $t 4)" -v lb="$(col /out/report-B.txt $t 4)" \
		-v aa="$(col /out/report-A.txt $t 7)" -v ab="$(col /out/report-B.txt $t 7)" \
		-v za="$(col /out/report-A.txt $t 8)" -v zb="$(col /out/report-B.txt $t 8)" \
		'BEGIN { d = lb - la; if (d > 0) printf "%d", 100 * (ab + zb - aa - za) / d; else print 0 }')
	fl_check_ge "alloc + zero share of the added mean latency at $t thread(s) (%)" "$share" 60
done
cp -r /tmp/A /tmp/B /out/ 2>/dev/null
fl_done
