// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the /proc/vmstat parser (fl_vmstat_parse) against a reference: a text
 * is accepted iff every non-empty line is "NAME VALUE" (one space, NAME
 * non-empty, shorter than 128 bytes in all) and, for a kept counter
 * (fl_vmstat_wanted, NAME < FL_NAME_LEN), VALUE is plain decimal digits that
 * fit in 64 bits.  Accepted: the entries are the kept names, unique, in
 * first-seen order, with the last value seen; re-parsing the same text as
 * "after" must leave after == before; printing the entries and parsing that
 * gives the same list.
 */
#include <errno.h>
#include <stdint.h>

#include "fuzzutil.h"
#include "vmstat.h"

static int strict_u64(const char *s, unsigned long long *v)
{
	unsigned long long x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - (*s - '0')) / 10)
			return -1;
		x = x * 10 + (*s - '0');
	}
	*v = x;
	return 0;
}

/* the reference: expected entries into ref (n returned), -1 = refuse */
static int reference(const char *text, struct fl_vmstat_entry *ref, unsigned int max)
{
	unsigned int n = 0;

	for (const char *p = text; *p; ) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[128], *sp;
		unsigned long long v;
		unsigned int i;

		if (len) {
			if (len >= sizeof(line))
				return -1;
			memcpy(line, p, len);
			line[len] = '\0';
			sp = strchr(line, ' ');
			if (!sp || sp == line)
				return -1;
			*sp = '\0';
			if (strlen(line) < FL_NAME_LEN && fl_vmstat_wanted(line)) {
				if (strict_u64(sp + 1, &v))
					return -1;
				for (i = 0; i < n && strcmp(ref[i].name, line); i++)
					;
				if (i == n) {
					if (n == max)
						return -2;	/* too many for this check */
					memset(&ref[n], 0, sizeof(ref[n]));
					strcpy(ref[n++].name, line);
				}
				ref[i].before = ref[i].after = v;
			}
		}
		p += len + (eol ? 1 : 0);
	}
	return (int)n;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct fl_vmstat_entry ref[4096];
	struct fl_vmstat v = { 0 }, w = { 0 };
	char *text = fz_str(data, size), *out;
	int nref = reference(text, ref, 4096), r;

	r = fl_vmstat_parse(&v, text, false);
	if (nref == -1)
		FZ_ASSERT(r == -1);
	if (nref >= 0) {
		FZ_ASSERT(r == 0);
		FZ_ASSERT(v.n == (unsigned int)nref);
		for (unsigned int i = 0; i < v.n; i++) {
			FZ_ASSERT(memchr(v.e[i].name, '\0', FL_NAME_LEN));
			FZ_ASSERT(!strcmp(v.e[i].name, ref[i].name));
			FZ_ASSERT(v.e[i].before == ref[i].before && v.e[i].after == ref[i].after);
		}
		/* same text as the "after" reading: nothing moved */
		FZ_ASSERT(fl_vmstat_parse(&v, text, true) == 0);
		FZ_ASSERT(v.n == (unsigned int)nref);
		for (unsigned int i = 0; i < v.n; i++)
			FZ_ASSERT(v.e[i].after == v.e[i].before);
		/* print and parse again */
		out = malloc((size_t)v.n * (FL_NAME_LEN + 24) + 1);
		FZ_ASSERT(out);
		out[0] = '\0';
		for (unsigned int i = 0, o = 0; i < v.n; i++)
			o += sprintf(out + o, "%s %llu\n", v.e[i].name,
				     (unsigned long long)v.e[i].before);
		FZ_ASSERT(fl_vmstat_parse(&w, out, false) == 0);
		FZ_ASSERT(w.n == v.n);
		FZ_ASSERT(!w.n || !memcmp(w.e, v.e, v.n * sizeof(*v.e)));
		free(out);
	}
	fl_vmstat_free(&v);
	fl_vmstat_free(&w);
	free(text);
	return 0;
}
