// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the pft-sweep result directory reader (fl_sweep_load) through a
 * scratch directory.  Input: fields separated by byte 0x01; field 0 lists
 * file names one a line (relative, at most one '/', no ".."), field i+1 is
 * the content of name i.  A loaded sweep must have: thread counts unique
 * and ascending, each with a pft-<N>.log that was written; per series, as
 * many usable + dropped samples as fl_pft_parse_line finds sample lines in
 * that file, at least one usable, all finite and >= 0; snapshots of each
 * series sorted by unique iteration, each one a written snap/pft-<N>-<I>.snap;
 * tags and sweep.conf exactly as written.  A directory without pft logs is
 * read as will-it-scale results (wislog.h): then each series has a written
 * benchlog-<test>_<model>-<N> of the one test, with as many samples as
 * fl_wis_parse_line finds outside its warmup, totals finite and >= 0.  A
 * refusal must say why.
 */
#include <math.h>

#include "fuzzutil.h"
#include "pftlog.h"
#include "wislog.h"

#define MAX_FILES 10

static const char *content_of(char **name, char **field, unsigned int n, const char *want)
{
	for (unsigned int i = 0; i < n; i++)
		if (name[i] && !strcmp(name[i], want))
			return field[i + 1] ? field[i + 1] : "";
	return NULL;
}

static unsigned int sample_lines(const char *text)
{
	unsigned int n = 0;

	for (const char *p = text; *p; ) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[700], err[200];
		struct fl_pft_sample s;

		if (len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = '\0';
			n += fl_pft_parse_line(line, &s, err, sizeof(err)) == 1;
		}
		p += len + (eol ? 1 : 0);
	}
	return n;
}

/* will-it-scale samples of TEXT outside "warmup" ... "measurement" */
static unsigned int wis_samples(const char *text)
{
	unsigned int n = 0;
	int warm = 0;

	for (const char *p = text; *p; ) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[200], err[200];
		struct fl_wis_sample s;

		if (len < sizeof(line)) {
			int r;

			memcpy(line, p, len);
			line[len] = '\0';
			r = fl_wis_parse_line(line, &s, err, sizeof(err));
			if (r == FL_WIS_WARMUP || r == FL_WIS_MEASURE)
				warm = r == FL_WIS_WARMUP;
			n += r == FL_WIS_SAMPLE && !warm;
		}
		p += len + (eol ? 1 : 0);
	}
	return n;
}

static void check_wis(const struct fl_sweep *sw, const char *dir, char **name, char **field,
		      unsigned int nn)
{
	const char *rel = sw->logdir + strlen(dir);

	FZ_ASSERT(!strncmp(sw->logdir, dir, strlen(dir)) && (!*rel || *rel == '/'));
	rel += *rel == '/';
	for (unsigned int i = 0; i < sw->nseries; i++) {
		const struct fl_pft_series *ser = &sw->series[i];
		char fname[200];
		const char *text;

		FZ_ASSERT(ser->threads > 0);
		FZ_ASSERT(i == 0 || ser->threads > sw->series[i - 1].threads);
		snprintf(fname, sizeof(fname), "%s%sbenchlog-%s-%u", rel, *rel ? "/" : "", sw->test,
			 ser->threads);
		text = content_of(name, field, nn, fname);
		FZ_ASSERT(text);
		FZ_ASSERT(ser->n >= 1 && ser->n == wis_samples(text));
		for (unsigned int k = 0; k < ser->n; k++)
			FZ_ASSERT(isfinite(ser->ops[k]) && ser->ops[k] >= 0);
		FZ_ASSERT(ser->nsnaps <= 1);
		if (ser->nsnaps)
			FZ_ASSERT(content_of(name, field, nn, ser->snaps[0] + strlen(dir) + 1));
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *field[MAX_FILES + 1], *name[MAX_FILES], dir[4096], err[1024] = "";
	unsigned int nf, nn;
	struct fl_sweep sw;
	const char *want;

	nf = fz_split(data, size, '\x01', field, MAX_FILES + 1);
	if (!nf)
		return 0;
	snprintf(dir, sizeof(dir), "%s/sweep", fz_scratch());
	nn = fz_tree(dir, field, nf, name);
	if (fl_sweep_load(dir, &sw, err, sizeof(err))) {
		FZ_ASSERT(err[0]);
		goto out;
	}
	FZ_ASSERT(sw.nseries >= 1);
	if (sw.wis) {
		check_wis(&sw, dir, name, field, nn);
		fl_sweep_free(&sw);
		goto out;
	}
	for (unsigned int i = 0; i < sw.nseries; i++) {
		const struct fl_pft_series *ser = &sw.series[i];
		char fname[64], prefix[4200];
		const char *text;

		FZ_ASSERT(ser->threads > 0);
		FZ_ASSERT(i == 0 || ser->threads > sw.series[i - 1].threads);
		FZ_ASSERT(fl_sweep_series(&sw, ser->threads) == ser);
		snprintf(fname, sizeof(fname), "pft-%u.log", ser->threads);
		text = content_of(name, field, nn, fname);
		FZ_ASSERT(text);
		FZ_ASSERT(ser->n >= 1 && ser->n + ser->dropped == sample_lines(text));
		for (unsigned int k = 0; k < ser->n; k++)
			FZ_ASSERT(isfinite(ser->flt_cpu[k]) && ser->flt_cpu[k] >= 0 &&
				  isfinite(ser->flt_wsec[k]) && ser->flt_wsec[k] >= 0);
		snprintf(prefix, sizeof(prefix), "%s/snap/pft-%u-", dir, ser->threads);
		for (unsigned int k = 0; k < ser->nsnaps; k++) {
			const char *p = ser->snaps[k], *rel = p + strlen(dir) + 1;

			FZ_ASSERT(!strncmp(p, prefix, strlen(prefix)));
			FZ_ASSERT(content_of(name, field, nn, rel));
			if (k) {
				unsigned long a = strtoul(ser->snaps[k - 1] + strlen(prefix), NULL, 10);
				unsigned long b = strtoul(p + strlen(prefix), NULL, 10);

				FZ_ASSERT(a < b);
			}
		}
	}
	want = content_of(name, field, nn, "tags");
	FZ_ASSERT(want ? sw.tags && !strcmp(sw.tags, want) : !sw.tags);
	want = content_of(name, field, nn, "sweep.conf");
	FZ_ASSERT(want ? sw.conf && !strcmp(sw.conf, want) : !sw.conf);
	fl_sweep_free(&sw);
out:
	fz_free_fields(field, nf);
	return 0;
}
