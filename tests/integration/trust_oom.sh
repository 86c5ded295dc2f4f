# Memory pressure: pft maps close to the guest's RAM.  Whether pft finishes
# or is OOM-killed, the collector must survive, write its snapshot and report.
# kernels: 6.12
# smp: 2
# mem: 512
# timeout: 600
# allow-dmesg-warnings: yes
. /fl/lib.sh
faultline record -o /out/oom.snap -- pft -m 440m -t 2 >/out/rec.log 2>&1
rc=$?
cat /out/rec.log
echo "record exit status: $rc (pft's)"
fl_check_cmd "snapshot written under memory pressure" test -s /out/oom.snap
fl_check_cmd "report reads it" sh -c 'faultline report /out/oom.snap >/out/report.txt'
fl_check_cmd "invariants hold" faultline check /out/oom.snap
user=$(faultline report --raw /out/oom.snap | sed -n 's/^faults_user=//p')
fl_check_ge "faults were counted" "${user:-0}" 1000
fl_check_ge "the OOM killer did act (pressure was real)" "$(dmesg | grep -c 'Out of memory')" 1
fl_check_eq "no BUG/Oops in dmesg (the OOM report's stack dump is expected)" "$(dmesg | grep -cE 'BUG:|Oops')" 0
fl_check_eq "the collector was not the one killed" "$(dmesg | grep -c 'Killed process.*(faultline)')" 0
fl_done
