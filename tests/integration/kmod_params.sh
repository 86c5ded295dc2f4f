# faultline.ko rejects what it should: every bad module parameter fails the
# insmod with EINVAL (module not loaded, a dmesg line saying why), every bad
# control write fails with EINVAL / E2BIG / ESRCH, good ones succeed, and the
# files are root-only.
# rcu_expedited: each refused insmod waits for two RCU grace periods
# (kmod_fuzz.sh says more).
# kernels: 6.12 6.1 5.10 7.3
# boot: shared
# smp: 2
# append: rcupdate.rcu_expedited=1
# timeout: 300
. /fl/lib.sh
. /fl/kmod.inc
[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }

not_loaded() { ! grep -q '^faultline ' /proc/modules; }

# insmod_rejected WHY ERRTEXT PARAM...: insmod must fail with ERRTEXT and leave nothing loaded
insmod_rejected() {
	why=$1 want=$2; shift 2
	out=$(insmod /fl/faultline.ko "$@" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && echo "$out" | grep -q "$want" && not_loaded; then
		fl_pass "insmod $* ($why): rejected with '$want'"
	else
		fl_fail "insmod $* ($why): expected failure '$want', got rc $rc '$out'"
		rmmod faultline 2>/dev/null
	fi
}

EINVAL="Invalid argument"
insmod_rejected "empty mask" "$EINVAL" hooks=0
insmod_rejected "bit beyond FL_HOOK_NR" "$EINVAL" hooks=0x400
insmod_rejected "mask too wide" "$EINVAL" hooks=0xffffffff
insmod_rejected "not a number" "$EINVAL" hooks=all
insmod_rejected "negative" "$EINVAL" hooks=-1
insmod_rejected "trailing junk" "$EINVAL" hooks=0x3ffz
insmod_rejected "empty value" "$EINVAL" hooks=
insmod_rejected "negative" "$EINVAL" tgid=-1
insmod_rejected "not a number" "$EINVAL" tgid=init
insmod_rejected "hex is not a pid" "$EINVAL" tgid=0x10
insmod_rejected "beyond PID_MAX_LIMIT" "$EINVAL" tgid=4194305
insmod_rejected "no such process" "$EINVAL" tgid=4194303
insmod_rejected "not a boolean" "$EINVAL" enable=maybe
insmod_rejected "not a boolean" "$EINVAL" enable=2
insmod_rejected "not a boolean" "$EINVAL" infer=yes
insmod_rejected "too many instances" "$EINVAL" maxactive=4097
insmod_rejected "not a number" "$EINVAL" maxactive=lots
insmod_rejected "nothing hookable: do_handle_mm_fault only, no SPF kernel" \
	"No such device" hooks=0x8
for p in hooks tgid enable infer maxactive; do
	if dmesg | grep -q "faultline: $p=.* rejected"; then fl_pass "dmesg explains a bad $p"
	else fl_fail "dmesg has no 'faultline: $p=... rejected' line"; fi
done
dmesg | grep 'faultline' >/out/dmesg_params.txt

# Good values load.
fl_check_cmd "insmod hooks=0x4 (handle_mm_fault only) tgid=1 maxactive=16 enable=0" \
	insmod /fl/faultline.ko hooks=0x4 tgid=1 maxactive=16 enable=0
fl_check_eq "handle_mm_fault with hooks=0x4" "$(kmod_hook_state handle_mm_fault)" live
fl_check_eq "page_fault_user with hooks=0x4" "$(kmod_hook_state page_fault_user)" off
fl_check_eq "tgid parameter shown" "$(cat /sys/module/faultline/parameters/tgid)" 1
fl_check_cmd "rmmod" rmmod faultline

fl_check_cmd "insmod (defaults)" insmod /fl/faultline.ko
fl_check_eq "enable default (nothing armed until enable)" "$(cat /sys/module/faultline/parameters/enable)" N
fl_check_eq "infer default" "$(cat /sys/module/faultline/parameters/infer)" Y

# ctl_rejected WHAT ERRTEXT: one write(2) of WHAT (no newline added) must fail
# with ERRTEXT (dd reports the errno; the shell's echo does not)
ctl_rejected() {
	out=$(printf '%s' "$1" | dd of="$FL_D/control" bs=4096 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && echo "$out" | grep -q "$2"; then
		fl_pass "control '$1': rejected with '$2'"
	else
		fl_fail "control '$1': expected '$2', got rc $rc '$out'"
	fi
}
NL='
'
ctl_rejected "$NL" "$EINVAL"
ctl_rejected "enabl" "$EINVAL"
ctl_rejected "ENABLE" "$EINVAL"
ctl_rejected " enable" "$EINVAL"
ctl_rejected "enable " "$EINVAL"
ctl_rejected "enable$NL$NL" "$EINVAL"
ctl_rejected "enable now" "$EINVAL"
ctl_rejected "reset 1" "$EINVAL"
ctl_rejected "mmap_lock" "$EINVAL"
ctl_rejected "mmap_lock off" "$EINVAL"
ctl_rejected "mmap_lock  on" "$EINVAL"
ctl_rejected "tgid" "$EINVAL"
ctl_rejected "tgid " "$EINVAL"
ctl_rejected "tgid  1" "$EINVAL"
ctl_rejected "tgid -1" "$EINVAL"
ctl_rejected "tgid +1" "$EINVAL"
ctl_rejected "tgid 0x10" "$EINVAL"
ctl_rejected "tgid 1x" "$EINVAL"
ctl_rejected "tgid 99999999999999999999" "$EINVAL"
ctl_rejected "tgid 4194305" "$EINVAL"
ctl_rejected "tgid 4194303" "No such process"
long=$(printf '%065d' 0)
ctl_rejected "$long" "Argument list too long"
ctl_rejected "tgid 1$long" "Argument list too long"
fl_check_eq "tgid filter unchanged by rejected writes" "$(cat /sys/module/faultline/parameters/tgid)" 0

# Good writes (echo adds the newline the module strips).
for c in disable enable reset "tgid $$" "tgid 0" "mmap_lock on" "mmap_lock auto" enable; do
	fl_check_cmd "control '$c'" kmod_ctl "$c"
done
kmod_ctl "tgid $$"
fl_check_eq "tgid filter after 'tgid \$\$'" "$(cat /sys/module/faultline/parameters/tgid)" "$$"
kmod_save_summary /out/summary.txt
fl_check_cmd "summary shows the filter" grep -q "tgid filter $$" "$KMOD_SUM"
kmod_ctl "tgid 0"
fl_check_cmd "printf without newline accepted" sh -c "printf reset >$FL_D/control"

# Root only.
for f in snapshot summary hooks; do
	fl_check_eq "mode of $f" "$(stat -c %a "$FL_D/$f")" 400
done
fl_check_eq "mode of control" "$(stat -c %a "$FL_D/control")" 600
# busybox su needs a passwd entry; the initramfs has none.
[ -f /etc/passwd ] || { mkdir -p /etc; echo 'root:x:0:0:root:/:/bin/sh' >/etc/passwd; }
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >>/etc/group
as_nobody() { su -s /bin/sh nobody -c "$1"; }
if [ "$(as_nobody 'id -u')" = 65534 ]; then
	for f in snapshot summary hooks; do
		fl_check_fails "uid 65534 reads $f" as_nobody "cat $FL_D/$f"
	done
	fl_check_fails "uid 65534 writes control" as_nobody "echo disable >$FL_D/control"
	fl_check_eq "still enabled after the unprivileged write" \
		"$(cat /sys/module/faultline/parameters/enable)" Y
	# Even with the debugfs mount opened up, the files' own modes and the
	# CAP_SYS_ADMIN check at open keep them root-only.
	chmod 0755 /sys/kernel/debug /sys/kernel/debug/faultline
	fl_check_fails "uid 65534 reads snapshot (mount 0755)" as_nobody "cat $FL_D/snapshot"
	chmod 0444 "$FL_D/snapshot"
	fl_check_fails "uid 65534 reads snapshot (file chmod 0444)" as_nobody "cat $FL_D/snapshot"
	chmod 0400 "$FL_D/snapshot"
	chmod 0700 /sys/kernel/debug
else
	fl_fail "su cannot run a command as uid 65534 in this box"
fi
# No kernel pointers: text files have no 0xffff... and the snapshot no
# canonical kernel address (8 bytes ending ff ff 8x/9x/ax-ff) at any offset.
if cat "$FL_D/hooks" "$FL_D/summary" | grep -qiE 'ffff[0-9a-f]{8}'; then
	fl_fail "a text file shows a kernel address"
else fl_pass "no kernel address in hooks/summary"; fi
cat "$FL_D/snapshot" >/tmp/snap.bin
n=$(od -An -v -tx8 -w8 /tmp/snap.bin | grep -ciE '^ *ffff[89a-f]' )
fl_check_eq "8-byte words in the snapshot that look like kernel addresses" "$n" 0

fl_check_cmd "rmmod" rmmod faultline
fl_done
