// SPDX-License-Identifier: GPL-2.0
/* Fuzz the snapshot parser: parse, and when it accepts, re-serialise and
 * parse again — the second parse must agree with the first. */
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct fl_snapshot s, t;
	struct fl_cpu_stats tot;
	char err[256];
	void *buf;
	size_t len;

	if (fl_snapshot_parse(data, size, &s, err, sizeof(err)))
		return 0;
	fl_snapshot_total(&s, &tot);
	(void)fl_snapshot_tag(&s, "kernel_version");
	(void)fl_snapshot_vmstat_delta(&s, "pgfault");
	if (fl_snapshot_serialize(&s, &buf, &len) == 0) {
		if (fl_snapshot_parse(buf, len, &t, err, sizeof(err)))
			abort();	/* we wrote something we cannot read */
		if (t.hdr.nr_cpus != s.hdr.nr_cpus ||
		    memcmp(t.cpus, s.cpus, s.hdr.nr_cpus * sizeof(*s.cpus)))
			abort();
		fl_snapshot_free(&t);
		free(buf);
	}
	fl_snapshot_free(&s);
	return 0;
}
