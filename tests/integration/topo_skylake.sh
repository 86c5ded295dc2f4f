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
# args: skylake 8 4 2 2 4
. /fl/lib.sh
. /fl/topo.inc
