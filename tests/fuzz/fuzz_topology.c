// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the topology string parsers; byte 0 picks one, byte 1 a CPU count.
 *  0: fl_cpulist_parse ("0-3,8-11") against a reference grammar
 *     (empty, or RANGE[,RANGE]... with an optional final newline, RANGE =
 *     N or A-B, A <= B < nr): same verdict; accepted lists only name CPUs < nr, set
 *     exactly the reference's CPUs, and fl_cpulist_format() of the mask
 *     parses back to the same mask.
 *  1: fl_parse_size ("32K"): non-zero only for DIGITS[K|M|G] whose byte
 *     count fits in 64 bits, and then exactly that count.
 *  2: fl_topology_from_tags (snapshot tags topology_llc, topology_node; the
 *     input is LLC NUL NODE): LLC and node ids within range; rebuilt tags
 *     (fl_topology_tags) read back to the same per-CPU layout.
 */
#include <stdint.h>

#include "fuzzutil.h"
#include "topology.h"

/* -1 refuse, else 0 with ref[] set */
static int ref_cpulist(const char *s, unsigned char *ref, unsigned int nr)
{
	const char *p = s;

	memset(ref, 0, nr);
	if (!*p)	/* empty: no CPUs (a lone newline is refused) */
		return 0;
	for (;;) {
		unsigned long long a = 0, b;

		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++)
			if ((a = a * 10 + (*p - '0')) > UINT32_MAX)
				return -1;
		b = a;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -1;
			for (b = 0; *p >= '0' && *p <= '9'; p++)
				if ((b = b * 10 + (*p - '0')) > UINT32_MAX)
					return -1;
		}
		if (a > b || b >= nr)
			return -1;
		for (unsigned long long i = a; i <= b; i++)
			ref[i] = 1;
		if (*p == ',') {
			p++;
			continue;
		}
		return !*p || !strcmp(p, "\n") ? 0 : -1;
	}
}

static void cpulist(const char *s, unsigned int nr)
{
	unsigned char mask[1025], ref[1025], back[1025];
	char out[8192];
	int r, rr;

	memset(mask, 0, sizeof(mask));
	mask[nr] = 0xaa;	/* canary: nothing may be set at or past nr */
	r = fl_cpulist_parse(s, mask, nr);
	rr = ref_cpulist(s, ref, nr);
	FZ_ASSERT(mask[nr] == 0xaa);
	FZ_ASSERT(r == rr);
	if (r)
		return;
	FZ_ASSERT(!memcmp(mask, ref, nr));
	fl_cpulist_format(mask, nr, out, sizeof(out));
	memset(back, 0, sizeof(back));
	FZ_ASSERT(fl_cpulist_parse(out, back, nr) == 0);
	FZ_ASSERT(!memcmp(mask, back, nr));
}

static void size(const char *s)
{
	unsigned long long v = 0, got = fl_parse_size(s), mul = 1;
	const char *p = s;
	int ok = *p >= '0' && *p <= '9';

	for (; ok && *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (*p - '0')) / 10)
			ok = 0;
		v = v * 10 + (*p - '0');
	}
	if (ok && *p) {
		mul = *p == 'K' ? 1ULL << 10 : *p == 'M' ? 1ULL << 20 : *p == 'G' ? 1ULL << 30 : 0;
		ok = mul && !p[1] && v <= UINT64_MAX / mul;
	}
	if (!ok)
		FZ_ASSERT(got == 0);
	else
		FZ_ASSERT(got == v * mul);
}

static void layout_eq(const struct fl_topology *a, const struct fl_topology *b)
{
	FZ_ASSERT(a->nr_cpus == b->nr_cpus && a->nr_llc == b->nr_llc);
	for (unsigned int c = 0; c < a->nr_cpus; c++)
		FZ_ASSERT(a->cpu[c].llc == b->cpu[c].llc && a->cpu[c].node == b->cpu[c].node);
}

static void rebuild(const struct fl_topology *t, struct fl_topology *out)
{
	char *llc, *node, err[256];

	FZ_ASSERT(fl_topology_tags(t, &llc, &node) == 0);
	FZ_ASSERT(fl_topology_from_tags(llc ? llc : "", node, t->nr_cpus, out, err,
					sizeof(err)) == 0);
	free(llc);
	free(node);
}

static void from_tags(const unsigned char *data, size_t len, unsigned int nr)
{
	struct fl_topology t, t2, t3;
	char *f[2], err[256];

	fz_split(data, len, '\0', f, 2);
	if (fl_topology_from_tags(f[0], f[1], nr, &t, err, sizeof(err))) {
		FZ_ASSERT(err[0]);
		goto out;
	}
	FZ_ASSERT(t.nr_cpus == nr);
	for (unsigned int c = 0; c < nr; c++) {
		FZ_ASSERT(t.cpu[c].llc >= -1 && t.cpu[c].llc < (int)t.nr_llc);
		FZ_ASSERT(t.cpu[c].node >= -1 && t.cpu[c].node <= 65535);
	}
	/*
	 * The first rebuild may renumber (a domain whose CPUs all went to a
	 * later list vanishes); from then on the layout is a fixed point.
	 */
	rebuild(&t, &t2);
	for (unsigned int c = 0; c < nr; c++)
		FZ_ASSERT(t.cpu[c].node == t2.cpu[c].node &&
			  (t.cpu[c].llc < 0) == (t2.cpu[c].llc < 0));
	rebuild(&t2, &t3);
	layout_eq(&t2, &t3);
	fl_topology_free(&t3);
	fl_topology_free(&t2);
	fl_topology_free(&t);
out:
	fz_free_fields(f, 2);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	unsigned int nr;
	char *s;

	if (len < 2)
		return 0;
	nr = data[1] * 4u + 1;	/* 1..1021 */
	s = fz_str(data + 2, len - 2);
	switch (data[0] % 3) {
	case 0:
		cpulist(s, nr);
		break;
	case 1:
		size(s);
		break;
	default:
		from_tags(data + 2, len - 2, data[1] < 32 ? data[1] : nr);
	}
	free(s);
	return 0;
}
