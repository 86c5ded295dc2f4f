# Memory pressure: pft maps close to the guest's RAM.  Whether pft finishes
# or is OOM-killed, the collector must survive, write its snapshot and report.
# kernels: 6.12
# smp: 2
# mem: 512
# timeout: 600
# allow-dmesg-warnings: yes
. /fl/lib.sh
avail=$(awk '$1 == "MemAvailable:" { print int($2 / 4) }' /proc/meminfo)
before=$(vmstat_get pgfault)
faultline record -o /out/oom.snap -- pft -m 440m -t 2 >/out/rec.log 2>&1
rc=$?
pgf=$(( $(vmstat_get pgfault) - before ))
echo "MemAvailable before: $avail pages; /proc/vmstat pgfault delta $pgf"
cat /out/rec.log
echo "record exit status: $rc (pft's)"
fl_check_cmd "snapshot written under memory pressure" test -s /out/oom.snap
fl_check_cmd "report reads it" sh -c 'faultline report /out/oom.snap >/out/report.txt'
fl_check_cmd "invariants hold" faultline check /out/oom.snap
user=$(faultline report --raw /out/oom.snap | sed -n 's/^faults_user=//p')
# both sides: pft touches 440m = 112640 pages at most (+1 % start-up) and
# the system-wide delta bounds it too; whether killed or not, it touched at
# least half of what was available before the OOM killer could pick it
max=$((112640 + 1126)); [ "$pgf" -lt "$max" ] && max=$pgf
fl_check_range "faults counted: >= half the available pages, <= pft's pages and the pgfault delta" \
	"$user" $((avail / 2)) "$max"
fl_check_ge "the OOM killer did act (pressure was real)" "$(dmesg | grep -c 'Out of memory')" 1
fl_check_eq "no BUG/Oops in dmesg (the OOM report's stack dump is expected)" "$(dmesg | grep -cE 'BUG:|Oops')" 0
fl_check_eq "the collector was not the one killed" "$(dmesg | grep -c 'Killed process.*(faultline)')" 0
fl_done
