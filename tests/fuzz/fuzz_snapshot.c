// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the snapshot parser: parse, and when it accepts, re-serialise and
 * parse again — the second parse must agree with the first.
 *
 * Format 1.1 snapshots carry CRC32C checksums (snapshot.h), so nearly every
 * mutation of a checksummed seed is refused at its checksum.  Each input is
 * therefore parsed twice: as it is (the checksum checks themselves), and
 * resealed, fl_snapshot_seal patching valid checksums into a copy, so that
 * every mutation also reaches the parser past the checksums.  (mkseeds also
 * writes format 1.0 seeds, which have none.)
 */
#include <stdlib.h>
#include <string.h>

#include "fuzzutil.h"
#include "snapshot.h"

/* 0 when the parser accepted DATA; the checks on what it accepted. */
static int one(const unsigned char *data, size_t size, struct fl_snapshot *s)
{
	struct fl_snapshot t;
	struct fl_cpu_stats tot;
	char err[256];
	void *buf;
	size_t len;

	if (fl_snapshot_parse(data, size, s, err, sizeof(err))) {
		FZ_ASSERT(err[0] && !strchr(err, '\n'));
		return -1;
	}
	fl_snapshot_total(s, &tot);
	(void)fl_snapshot_tag(s, "kernel_version");
	(void)fl_snapshot_vmstat_delta(s, "pgfault");
	if (fl_snapshot_serialize(s, &buf, &len) == 0) {
		/* we must read what we wrote, checksums and all */
		FZ_ASSERT(fl_snapshot_parse(buf, len, &t, err, sizeof(err)) == 0);
		FZ_ASSERT(t.no_checksums == 0);
		FZ_ASSERT(t.hdr.nr_cpus == s->hdr.nr_cpus &&
			  !memcmp(t.cpus, s->cpus, s->hdr.nr_cpus * sizeof(*s->cpus)));
		fl_snapshot_free(&t);
		free(buf);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct fl_snapshot s;
	unsigned char *copy = malloc(size ? size : 1);
	int raw;

	if (!copy)
		return 0;
	raw = one(data, size, &s);
	memcpy(copy, data, size);
	(void)fl_snapshot_seal(copy, size);
	/* accepted with its checksums verified: they were the right ones already */
	if (!raw && !s.no_checksums)
		FZ_ASSERT(!memcmp(copy, data, size));
	if (!raw)
		fl_snapshot_free(&s);
	if (!one(copy, size, &s))
		fl_snapshot_free(&s);
	free(copy);
	return 0;
}
