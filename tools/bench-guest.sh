# tools/bench's test-box section: each backend/tier vs untraced pft, paired.
# QEMU TCG timing is EMULATED: this shows every tier runs and its relative
# cost under emulation, never real overhead.
PAIRS=${1:-3}
T=$(nproc)
run() { "$@" | awk 'NF == 8 && $7 ~ /^[0-9.]+$/ { print $7, $8 }' | tail -1; }
one() {	# NAME CMD-PREFIX...
	name=$1; shift
	: >/tmp/p
	for i in $(seq "$PAIRS"); do
		b=$(run pft -m 64m -t "$T")
		x=$(run "$@" pft -m 64m -t "$T")
		[ -n "$b" ] && [ -n "$x" ] && echo "$b $x" >>/tmp/p
	done
	echo "tier $name (pft -m 64m -t $T, emulated):"
	awk -f /fl/bench-stats.awk /tmp/p
}
for tier in fentry kprobe tracepoint; do
	one "bpf-$tier" faultline record -q -b bpf --tier "$tier" -o /tmp/s.snap --
done
if [ -f /fl/faultline.ko ] && insmod /fl/faultline.ko; then
	one kmod faultline record -q -b kmod -o /tmp/s.snap --
	rmmod faultline
fi
