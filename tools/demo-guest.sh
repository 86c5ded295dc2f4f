# The demo's guest side: the main job on one kernel.  insmod the module, run
# a short pft sweep under the collector, report and export.  Every step that
# is not available says so instead of pretending.
. /fl/lib.sh
R=/out/sweep
step() { echo; echo "### $*"; }

step "kernel $FL_KREL, $(nproc) vCPUs (QEMU TCG: timings are emulated, not performance)"
if [ -f /fl/faultline.ko ]; then
	insmod /fl/faultline.ko && echo "faultline.ko loaded" || echo "insmod faultline.ko FAILED"
	[ -r /sys/kernel/debug/faultline/hooks ] && cat /sys/kernel/debug/faultline/hooks
else
	echo "faultline.ko: not built for this kernel"
fi

if [ -x /fl/faultline ]; then
	step "faultline probe"
	faultline probe || echo "(probe exited $?)"
else
	echo "collector: user/faultline not built"
fi

if [ -x /fl/pft-sweep ] && [ -x /fl/pft ]; then
	step "pft-sweep (3 iterations, 64 MiB, 1..$(nproc) threads) under faultline record"
	rec=
	[ -x /fl/faultline ] && rec=--record
	PFT_ITERATIONS=3 PFT_MAPPING_SIZE=$((64 << 20)) PFT_MAX_CLIENTS=$(nproc) \
		pft-sweep $rec -o "$R" || echo "(pft-sweep exited $?)"
	ls "$R" "$R/snap" 2>/dev/null
elif [ -x /fl/pft ]; then
	step "pft -m 64m -t 2 (pft-sweep not built)"
	pft -T -m 64m -t 2
else
	step "touchpages 16384 (pft not built yet)"
	touchpages 16384
fi

if [ -x /fl/faultline ]; then
	step "faultline record -- pft -m 64m -t 2 (backend auto)"
	faultline record -o /out/auto.snap -- pft -m 64m -t 2 && faultline report /out/auto.snap
	if [ -x /fl/provoke ] && [ -r /sys/kernel/btf/vmlinux ]; then
		# beside pft's ~0 % aborts: a run whose aborts and retries are known
		# in advance (tests/helpers/provoke.c; lockless_outcomes.sh pins them)
		step "faultline record -- provoke stack-grow 2000, then vdso-retry 2000 (aborts and retries on purpose)"
		faultline record -q -o /out/provoke-abort.snap -- provoke stack-grow 2000 &&
			faultline report /out/provoke-abort.snap | grep -E 'faults|lockless path|not attempted'
		faultline record -q -o /out/provoke-retry.snap -- provoke vdso-retry 2000 &&
			faultline report /out/provoke-retry.snap | grep -E 'faults|lockless path|not attempted'
	fi
	if [ -r /sys/kernel/debug/faultline/snapshot ]; then
		step "faultline record -b kmod -- pft -m 64m -t 2"
		faultline record -b kmod -o /out/kmod.snap -- pft -m 64m -t 2 &&
			faultline report /out/kmod.snap
	fi
fi
grep -q '^faultline ' /proc/modules && { rmmod faultline && echo "faultline.ko unloaded"; }
exit 0
