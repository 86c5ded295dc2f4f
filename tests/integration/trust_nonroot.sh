# The collector as an unprivileged user: a clear refusal, a non-zero exit,
# and no file (not even a temporary one) left behind.
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
fl_done
