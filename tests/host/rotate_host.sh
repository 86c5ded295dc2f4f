#!/bin/sh
# tests/integration/rotate_stress.sh on the machine itself (the development
# host has the tracepoint tier only): >= 1000 interval rotations of a
# recording of a pft loop must add up, counter by counter, to what a
# second, non-rotating recording of the same process counted.  Needs root,
# kernel BTF, user/faultline and tools/pft/pft built.  About a minute.
#   tests/host/rotate_host.sh [OUTDIR]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
FL_HOST_OUT=${1:-$TOP/out/host/rotate}
export FL_HOST_OUT
exec sh "$TOP/tests/integration/rotate_stress.sh"
