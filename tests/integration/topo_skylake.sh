# Machine tags and topology on a Skylake-like guest: QEMU -cpu Skylake-Server,
# 2 sockets x 2 cores x 2 threads, one NUMA node per socket.  faultline tags
# must say genus skylake, 8 logical / 4 physical cores, 2 sockets, 2 nodes,
# and group CPUs into LLC domains exactly as the guest's sysfs
# (cpuN/cache/index3/shared_cpu_list) does; a recorded snapshot carries that
# layout and `export --by llc|node` groups by it.
# kernels: 6.12
# cpu: Skylake-Server
# smp: 8,sockets=2,cores=2,threads=2
# mem: 1024
# numa: -object memory-backend-ram,id=m0,size=512M -numa node,nodeid=0,cpus=0-3,memdev=m0 -object memory-backend-ram,id=m1,size=512M -numa node,nodeid=1,cpus=4-7,memdev=m1
# timeout: 300
# The Skylake-Server and EPYC-Rome CPU models make the kernel print mitigation
# notices at boot ("RETBleed: WARNING: Spectre v2 mitigation leaves CPU
# vulnerable", "Speculative Return Stack Overflow: WARNING: See ..."), which
# the test box's dmesg check counts as warnings.
# allow-dmesg-warnings: yes
# args: skylake 8 4 2 2 4
. /fl/lib.sh
GENUS=$1 LOGICAL=$2 PHYSICAL=$3 SOCKETS=$4 NODES=$5 LLC_CPUS=$6

tags=$(faultline tags --topology) || fl_fail "faultline tags exited $?"
echo "$tags" >/out/tags.txt
tag() { echo "$tags" | sed -n "s/^$1=//p"; }
fl_check_eq "genus" "$(tag machine_platform_genus)" "$GENUS"
fl_check_eq "logical cores" "$(tag machine_total_logical_cores)" "$LOGICAL"
fl_check_eq "logical cores = nproc" "$(tag machine_total_logical_cores)" "$(nproc)"
fl_check_eq "physical cores" "$(tag machine_total_physical_cores)" "$PHYSICAL"
fl_check_eq "sockets" "$(tag machine_sockets)" "$SOCKETS"
fl_check_eq "numa nodes" "$(tag machine_numa_nodes)" "$NODES"
fl_check_eq "kernel_version" "$(tag kernel_version)" "$(uname -r)"
fl_check_eq "arch" "$(tag machine_platform_arch)" "X86_64"

# LLC grouping: two CPUs share a faultline llc id iff sysfs lists them together
llc_of() { echo "$tags" | sed -n "s/^cpu=$1 .* llc=\([-0-9]*\) .*/\1/p"; }
list_of() { cat /sys/devices/system/cpu/cpu$1/cache/index3/shared_cpu_list 2>/dev/null; }
expand() {	# "0-3,8" -> "0 1 2 3 8"
	echo "$1" | tr ',' '\n' | while IFS=- read a b; do
		[ -z "$b" ] && b=$a
		i=$a; while [ "$i" -le "$b" ]; do printf '%s ' "$i"; i=$((i + 1)); done
	done
}
n=$(nproc) bad=0 domains=""
if [ -z "$(list_of 0)" ]; then
	fl_fail "guest sysfs has no index3 (L3) for cpu0"
else
	c=0
	while [ "$c" -lt "$n" ]; do
		mine=$(llc_of $c)
		for o in $(expand "$(list_of $c)"); do
			[ "$(llc_of $o)" = "$mine" ] || bad=$((bad + 1))
		done
		o=0
		while [ "$o" -lt "$n" ]; do
			case " $(expand "$(list_of $c)")" in
			*" $o "*) ;;
			*) [ "$(llc_of $o)" = "$mine" ] && bad=$((bad + 1)) ;;
			esac
			o=$((o + 1))
		done
		case " $domains " in *" $mine "*) ;; *) domains="$domains $mine" ;; esac
		c=$((c + 1))
	done
	fl_check_eq "LLC grouping matches sysfs shared_cpu_list (mismatches)" "$bad" 0
	set -- $domains
	fl_check_eq "LLC domains" "$(tag machine_llc_domains)" "$#"
	fl_check_eq "CPUs per LLC" "$(tag machine_llc_cpus)" "$(expand "$(list_of 0)" | wc -w)"
	fl_check_eq "CPUs per LLC, expected" "$(tag machine_llc_cpus)" "$LLC_CPUS"
	echo "guest L3 of cpu0: $(list_of 0); faultline: $(tag topology_llc)"
fi

# the layout travels in snapshots: record, then export by llc and node
if faultline record -q -o /out/topo.snap -- pft -m 16m -t 2 >/out/record.txt 2>&1; then
	fl_pass "record"
	faultline export -f json --by llc /out/topo.snap >/out/by-llc.json
	fl_check_eq "export --by llc exits 0" $? 0
	fl_check_eq "llc groups in export" \
		"$(grep -o '"llc":[0-9]*' /out/by-llc.json | sort -u | wc -l)" "$(tag machine_llc_domains)"
	faultline export -f prom --by node /out/topo.snap >/out/by-node.prom
	fl_check_eq "prom node groups" \
		"$(grep -o 'node="[0-9]*"' /out/by-node.prom | sort -u | wc -l)" "$NODES"
else
	fl_fail "faultline record exited non-zero: $(tail -3 /out/record.txt)"
fi
fl_done
