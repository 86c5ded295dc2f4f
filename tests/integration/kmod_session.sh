# One recording at a time on faultline.ko, and tied to the recorder's life
# (module/session.c): while `record -b kmod` runs, a second one is refused
# (exit 1, naming the first's pid, no snapshot written), `rmmod faultline`
# fails and control refuses other writers; the first's figures are its own
# (faults_user = its pages +-1%, as kmod_record).  A SIGKILLed recorder
# leaves nothing armed (hooks, the kernel's kprobe list as before the
# recording) and its workload dies with it (PR_SET_PDEATHSIG).
# kernels: 6.12 6.1 5.10 7.3
# boot: shared
# smp: 2
# timeout: 400
. /fl/lib.sh
. /fl/kmod.inc
SIZE=64m
PAGES=$(( ${SIZE%m} * 256 ))
[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
[ -x /fl/faultline ] || fl_skip "user/faultline not built"
[ -x /fl/pft ] || fl_skip "pft not built"

# wait_for CMD...: up to 30 s for CMD to succeed
wait_for() {
	i=0
	while ! "$@" 2>/dev/null; do
		i=$((i + 1))
		[ $i -ge 300 ] && return 1
		sleep 0.1
	done
}
held() { grep -q '^session: held by ' "$FL_D/summary"; }
armed() { grep -q '^armed: yes' "$FL_D/hooks"; }

fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
fl_check_eq "no session after load" "$(sed -n 's/^session: //p' "$FL_D/summary")" none
fl_check_eq "mode of session" "$(stat -c %a "$FL_D/session")" 600
kmod_kprobes >/tmp/kprobes-idle.txt

# -- two recordings at once; rmmod and control during one ------------------
mkfifo /tmp/gate
/fl/faultline record -b kmod -o /tmp/a.snap -- \
	sh -c "read x </tmp/gate; exec /fl/pft -m $SIZE -t 1" >/out/record_a.txt 2>&1 &
ra=$!
fl_check_cmd "the first recording holds the session" wait_for held
fl_check_cmd "... and has armed the hooks" wait_for armed
holder=$(sed -n 's/^session: held by pid \([0-9]*\) .*/\1/p' "$FL_D/summary")
fl_check_eq "the holder is the first recorder" "$holder" "$ra"

/fl/faultline record -b kmod -o /tmp/b.snap -- /fl/pft -m 4m -t 1 >/out/record_b.txt 2>&1
rc=$?
cat /out/record_b.txt
fl_check_eq "a second record -b kmod exits 1" "$rc" 1
fl_check_cmd "... saying the module is in use by pid $ra" \
	grep -q "in use by another recording, pid $ra (" /out/record_b.txt
fl_check_cmd "... and writes no snapshot" sh -c '! ls /tmp/b.snap* 2>/dev/null | grep -q .'
fl_check_fails "rmmod faultline during a recording" rmmod faultline
fl_check_cmd "... the module is still loaded" grep -q '^faultline ' /proc/modules
fl_check_fails "control refuses 'disable' from another writer" kmod_ctl disable
fl_check_cmd "... the hooks stay armed" armed

echo go >/tmp/gate
wait $ra
rc=$?
cat /out/record_a.txt
fl_check_eq "the first recording exits 0" "$rc" 0
/fl/faultline report --raw /tmp/a.snap >/out/a_raw.txt || fl_fail "report --raw of the first"
fl_check_within "the first's faults_user vs its pages" "$(fl_raw /out/a_raw.txt faults_user)" "$PAGES" 1
fl_check_eq "no session after it" "$(sed -n 's/^session: //p' "$FL_D/summary")" none
fl_check_cmd "nothing armed after it" sh -c "grep -q '^armed: no' $FL_D/hooks"

# -- a SIGKILLed recorder -------------------------------------------------
rm -f /tmp/wl.pid
/fl/faultline record -b kmod -o /tmp/k.snap -- \
	sh -c 'echo $$ >/tmp/wl.pid; exec sleep 1000' >/out/record_k.txt 2>&1 &
rk=$!
fl_check_cmd "the recorder to be killed holds the session" wait_for held
fl_check_cmd "... with the hooks armed" wait_for armed
fl_check_cmd "... and its workload started" wait_for test -s /tmp/wl.pid
wl=$(cat /tmp/wl.pid)
kill -9 $rk
wait $rk
gone() { ! kill -0 "$wl"; }
fl_check_cmd "the workload (pid $wl) dies with its recorder" wait_for gone
fl_check_eq "no session after SIGKILL" "$(sed -n 's/^session: //p' "$FL_D/summary")" none
fl_check_cmd "nothing armed after SIGKILL" sh -c "grep -q '^armed: no' $FL_D/hooks"
kmod_kprobes >/tmp/kprobes-after.txt
fl_check_cmd "the kernel's kprobe list is as before the recordings" \
	cmp /tmp/kprobes-idle.txt /tmp/kprobes-after.txt
fl_check_cmd "control takes commands again" kmod_ctl reset
fl_check_cmd "rmmod faultline once no recording holds it" rmmod faultline
fl_done
