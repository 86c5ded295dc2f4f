# The collector as an unprivileged user: a clear refusal, a non-zero exit,
# and no file (not even a temporary one) left behind: nor the output
# directory of -o DIR/ or -i, nor the deleted snapshots of an earlier
# recording into it; --self-cost refused with its own reason.
# kernels: 6.12
# smp: 2
. /fl/lib.sh
mkdir -p /tmp/u /etc && chmod 777 /tmp/u
echo 'root:x:0:0::/tmp:/bin/sh' >/etc/passwd
echo 'user:x:1000:1000::/tmp/u:/bin/sh' >>/etc/passwd
echo 'root:x:0:' >/etc/group
echo 'user:x:1000:' >>/etc/group
fl_check_eq "su runs as uid 1000" "$(su -s /bin/sh user -c 'id -u')" 1000
out=$(su -s /bin/sh user -c 'faultline record -o /tmp/u/x.snap -- /fl/pft -m 16m' 2>&1)
rc=$?
echo "$out"
fl_check_ge "non-root record exits non-zero" "$rc" 1
lines=$(echo "$out" | grep -c '^faultline record: .*\(root\|permission\|privilege\|CAP_\)')
fl_check_ge "faultline itself says why it refuses" "$lines" 1
fl_check_eq "no snapshot or temp file left" "$(ls /tmp/u | wc -l)" 0
su -s /bin/sh user -c 'faultline record -q -i 1 -o /tmp/u/ivl -- /fl/pft -m 16m' >/dev/null 2>&1
fl_check_ge "non-root record -i exits non-zero" $? 1
fl_check_eq "no output directory created" "$(ls /tmp/u | wc -l)" 0
su -s /bin/sh user -c 'mkdir /tmp/u/old && touch /tmp/u/old/snap-0000.snap'
su -s /bin/sh user -c 'faultline record -q -o /tmp/u/old/ -- /fl/pft -m 16m' >/dev/null 2>&1
fl_check_ge "non-root record -o DIR/ exits non-zero" $? 1
fl_check_eq "an earlier recording's snapshot is kept" "$(ls /tmp/u/old)" snap-0000.snap
out=$(su -s /bin/sh user -c 'faultline record --self-cost -o /tmp/u/sc.snap -- /fl/pft -m 16m' 2>&1)
fl_check_ge "non-root record --self-cost exits non-zero" $? 1
echo "$out"
fl_check_eq "--self-cost says why" "$(echo "$out" | grep -c 'self-cost: turning on BPF run-time statistics: Operation not permitted')" 1
fl_check_empty "no snapshot left" "$(ls /tmp/u/sc.snap 2>/dev/null)"
fl_done
