# Machine tags and topology on a Rome-like guest: QEMU -cpu EPYC-Rome,
# 2 sockets x 4 cores, one NUMA node per socket.  faultline tags
# must say genus rome, 8 logical / 8 physical cores, 2 sockets, 2 nodes,
# and group CPUs into LLC domains exactly as the guest's sysfs
# (cpuN/cache/index3/shared_cpu_list) does; a recorded snapshot carries that
# layout and `export --by llc|node` groups by it.
# QEMU 7.2 gives EPYC-Rome one L3 per socket (with or without dies=, checked:
# -smp 16,sockets=2,dies=2,cores=4 still shows shared_cpu_list 0-7), not
# Rome's 4-core CCX, so the CCX grouping (32 L3 domains of 4 cores + SMT
# siblings on a 2 x 64-core box) is tested on the recorded Rome sysfs tree in
# tests/unit/test_tags.c; here the L3 is the socket's 4 CPUs.
# kernels: 6.12
# cpu: EPYC-Rome
# smp: 8,sockets=2,cores=4,threads=1
# mem: 1024
# numa: -object memory-backend-ram,id=m0,size=512M -numa node,nodeid=0,cpus=0-3,memdev=m0 -object memory-backend-ram,id=m1,size=512M -numa node,nodeid=1,cpus=4-7,memdev=m1
# timeout: 300
# args: rome 8 8 2 2 4
. /fl/lib.sh
. /fl/topo.inc
