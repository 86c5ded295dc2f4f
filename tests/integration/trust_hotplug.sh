# Offline and online a vCPU while recording: no crash, counts still exact,
# invariants hold, and the CPU that went offline keeps the data it had.
# kernels: 6.12 6.1
# smp: 2
# timeout: 600
. /fl/lib.sh
cpu1=/sys/devices/system/cpu/cpu1/online
[ -w $cpu1 ] || fl_skip "cpu1 cannot be offlined in this guest"
# -a: pin workers, so cpu1 has faults before it goes offline
faultline record -o /out/hp.snap -- pft -a -m 256m -t 2 >/out/rec.log 2>&1 &
rp=$!
sleep 4
fl_check_cmd "offline cpu1 during the run" sh -c "echo 0 >$cpu1"
sleep 2
fl_check_cmd "online cpu1 again" sh -c "echo 1 >$cpu1"
wait $rp
fl_check_eq "record exits 0 across hotplug" $? 0
cat /out/rec.log
faultline report --raw /out/hp.snap >/out/raw.txt
user=$(sed -n 's/^faults_user=//p' /out/raw.txt)
fl_check_within "user faults vs 65536 pages" "$user" 65536 1
fl_check_cmd "invariants hold" faultline check /out/hp.snap
c1=$(faultline report --raw /out/hp.snap | sed -n 's/^cpu1\.faults_user=//p')
fl_check_ge "cpu1 kept its faults across offline/online" "${c1:-0}" 1
fl_done
