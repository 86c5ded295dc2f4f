fuzz_topology_SRCS := user/topology.c
