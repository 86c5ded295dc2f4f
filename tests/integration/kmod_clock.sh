# The module's clock fallback (module/clock.c): booted with clocksource=hpet
# the timekeeping clocksource is not the TSC, so the module must read
# ktime_get_mono_fast_ns() and say so; its figures must stay right: every
# page counted, and (on the cost meter, where guest ns = instructions) the
# reported fault latency p50 within one bucket of pft's own untraced
# --latency p50, as cost_budget.sh holds the TSC clock to.
# kernels: 6.12 6.1 7.3
# icount: yes
# timeout: 600
# append: clocksource=hpet
. /fl/lib.sh
. /fl/kmod.inc

[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
fl_check_eq "booted on the hpet clocksource" "$cs" hpet

p50() { sed -n 's/.* p50=\([0-9]*\) .*/\1/p' | tail -1; }
/fl/pft -m 64m -t 1 --latency >/dev/null 2>&1	# warm
U=$(/fl/pft -m 64m -t 1 --latency 2>&1 | p50)

fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
faultline record -q -o /tmp/k.snap -b kmod -- /fl/pft -m 64m -t 1 >/dev/null 2>&1 ||
	fl_fail "record -b kmod"
clock=$(grep '^clock:' "$FL_D/summary")
echo "$clock"
fl_check_eq "the module's clock" "$clock" \
	"clock: ktime_get_mono_fast_ns (the clocksource is not the TSC)"
rep=$(faultline report --raw /tmp/k.snap)
ended=$(echo "$rep" | sed -n 's/^faults_timed=//p')
lat_n=$(echo "$rep" | sed -n 's/^fault_latency.count=//p')
rp50=$(echo "$rep" | sed -n 's/^fault_latency.p50_ns=//p')
# 64 MiB = 16384 pages touched once each, plus pft's and the loader's own
fl_check_range "faults timed (16384 pages + start-up)" "$ended" 16384 17384
fl_invariant "one latency sample per timed fault" "$lat_n" "$ended"
echo "untraced pft --latency p50 $U, reported p50 $rp50"
# one 512 ns bucket at 4-8 us is +7.4 %; the TSC clock holds +5 % (cost-budgets)
fl_check_range "reported p50 within a bucket of the untraced p50 $U" "$rp50" \
	$((U * 85 / 100)) $((U * 108 / 100))
rmmod faultline || fl_fail "rmmod faultline"
fl_done
