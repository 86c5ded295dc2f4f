# The collector as an unprivileged user: a clear refusal, a non-zero exit,
# and no file (not even a temporary one) left behind.
# kernels: 6.12
# smp: 2
. /fl/lib.sh
mkdir -p /tmp/u && chmod 777 /tmp/u
out=$(setpriv --reuid=1000 --regid=1000 --clear-groups faultline record -o /tmp/u/x.snap -- pft -m 16m 2>&1)
rc=$?
echo "$out"
fl_check_ge "non-root record exits non-zero" "$rc" 1
lines=$(echo "$out" | grep -ci 'root\|permission\|privilege')
fl_check_ge "the refusal says why" "$lines" 1
fl_check_eq "no snapshot or temp file left" "$(ls /tmp/u | wc -l)" 0
fl_done
