// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz pft's option parser (pft_parse_args).  Input: byte 0 picks the page
 * and cache-line size, the rest is argv[1..] split on NUL.  Accepted options
 * must be within the documented limits and free of the refused combinations;
 * a refusal must come with a one-line reason (unless it quotes an argument
 * that holds a newline); parsing the same argv again
 * (getopt permutes it: parse a fresh copy) must give the same answer.
 */
#include "fuzzutil.h"
#include "pft.h"

#define MAX_ARGS 64

static int parse(char **field, unsigned int n, size_t page, size_t line, struct pft_opts *o,
		 char *err, size_t errlen)
{
	char *argv[MAX_ARGS + 2], *orig[MAX_ARGS + 2];
	int r;

	argv[0] = strdup("pft");
	for (unsigned int i = 0; i < n; i++)
		argv[i + 1] = strdup(field[i]);
	argv[n + 1] = NULL;
	memcpy(orig, argv, sizeof(orig));	/* getopt permutes argv */
	r = pft_parse_args((int)n + 1, argv, o, page, line, err, errlen);
	/* --file PATH points into argv, freed below: point it at the caller's copy */
	for (unsigned int i = 1; i <= n && !r && o->path; i++)
		if (o->path >= orig[i] && o->path <= orig[i] + strlen(orig[i]))
			o->path = field[i - 1] + (o->path - orig[i]);
	for (unsigned int i = 0; i <= n; i++)
		free(orig[i]);
	return r;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *field[MAX_ARGS], err[512], err2[512];
	struct pft_opts o, o2;
	size_t page, line;
	unsigned int n;
	int r;

	if (size < 1)
		return 0;
	page = data[0] & 1 ? 65536 : 4096;
	line = data[0] & 2 ? 128 : 64;
	n = size > 1 ? fz_split(data + 1, size - 1, '\0', field, MAX_ARGS) : 0;
	r = parse(field, n, page, line, &o, err, sizeof(err));
	FZ_ASSERT(r == 0 || r == -1);
	if (r) {
		int nl = 0;

		for (unsigned int i = 0; i < n; i++)
			nl |= !!strchr(field[i], '\n');
		FZ_ASSERT(err[0]);
		FZ_ASSERT(nl || !strchr(err, '\n'));	/* it may quote an argument */
	} else if (o.series) {
		FZ_ASSERT(o.series_min >= 1 && o.series_min <= o.series_max);
		FZ_ASSERT(o.series_max <= 1u << 20 && o.series_ncpus <= 1u << 20);
	} else {
		FZ_ASSERT(o.bytes > 0 && o.bytes <= 1ULL << 52);
		FZ_ASSERT(o.workers >= 1 && o.workers <= PFT_MAX_WORKERS);
		FZ_ASSERT((o.bytes + page - 1) / page >= o.workers);
		FZ_ASSERT(o.clines >= 1 && o.clines <= page / line);
		FZ_ASSERT(o.sleep_s <= 86400);
		FZ_ASSERT(o.thp == PFT_THP_NEVER || o.thp == PFT_THP_ALWAYS ||
			  o.thp == PFT_THP_DEFAULT);
		FZ_ASSERT(!(o.latency && o.bzero));
		FZ_ASSERT(!(o.bzero && o.clines != 1));
	}
	FZ_ASSERT(parse(field, n, page, line, &o2, err2, sizeof(err2)) == r);
	if (r)
		FZ_ASSERT(!strcmp(err, err2));
	else
		FZ_ASSERT(!memcmp(&o, &o2, sizeof(o)));
	fz_free_fields(field, n);
	return 0;
}
