#!/bin/sh
# Documentation/prometheus/: the recording and alerting rules for
# `faultline serve` pass `promtool check rules`, and their unit tests
# (faultline-rules.test.yml: abort ratio, p99 latency, mmap_lock wait per
# fault, events missed, exporter down; a tracepoint-tier host yields no
# latency series) pass `promtool test rules`.
#   tests/host/prom_rules.sh [OUTDIR]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
PROMBIN=${FAULTLINE_CACHE:-/var/cache/faultline}/prometheus/usr/bin
PROMTOOL=${PROMTOOL:-$PROMBIN/promtool}
[ -x "$PROMTOOL" ] || PROMTOOL=$(command -v promtool) || fl_skip "no promtool (tools/setup-deps)"
cd "$TOP/Documentation/prometheus" || exit 1
"$PROMTOOL" check rules faultline-rules.yml
fl_check_eq "promtool check rules faultline-rules.yml" $? 0
"$PROMTOOL" test rules faultline-rules.test.yml
fl_check_eq "promtool test rules faultline-rules.test.yml" $? 0
fl_done
