# Foundation scenario: the box, the module build against matching headers and
# the result channel work.  Touch PAGES base pages (THP off), check the
# kernel's pgfault delta is at least EXPECT (default PAGES), with the module
# loaded; unload it; dmesg is checked by the runner.
# kernels: 6.12 6.1
# boot: shared
# smp: 2
# args: 4096
. /fl/lib.sh
PAGES=${1:-4096}
EXPECT=${2:-$PAGES}

if [ -f /fl/faultline.ko ]; then
	fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
	fl_check_cmd "module listed" grep -q '^faultline ' /proc/modules
else
	fl_fail "faultline.ko was not built for $FL_KREL"
fi
before=$(vmstat_get pgfault)
out=$(/fl/touchpages "$PAGES") || fl_fail "touchpages exited $?"
after=$(vmstat_get pgfault)
echo "$out"
echo "$out" >/out/touchpages.txt
echo "pgfault_delta=$((after - before)) pages=$PAGES" >/out/result.txt
fl_check_ge "vmstat pgfault delta for $PAGES pages" $((after - before)) "$EXPECT"
minflt=$(echo "$out" | sed -n 's/.*minflt \([0-9]*\).*/\1/p')
fl_check_within "getrusage minflt" "$minflt" "$PAGES" 1
if grep -q '^faultline ' /proc/modules; then
	fl_check_cmd "rmmod faultline" rmmod faultline
fi
fl_done
