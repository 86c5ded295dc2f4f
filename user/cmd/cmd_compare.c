// SPDX-License-Identifier: GPL-2.0
/*
 * faultline compare A B: the A/B table of two pft-sweep result directories,
 * laid out like the LKML report in shared/seed/ (KERNELS, TAGS, METRICS
 * with (A), (B) and % rows), plus a direction, Welch's t-test per metric and
 * the collector's metrics when the sweeps carry snapshots.  Options, usage
 * and which renderer: the model is compare.c's, the rendering
 * compare_render.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "compare.h"
#include "compare_render.h"
#include "export_out.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: faultline compare [OPTIONS] A B\n"
"  A, B: pft-sweep result directories (base kernel A, test kernel B), or two\n"
"  snapshots (record -o): the two recordings side by side, a rank test per histogram\n"
"  -f, --format FMT     text (default, the seed report's layout), json, csv, markdown\n"
"      --seed           text with the seed's columns only (no direction, no p-value)\n"
"      --label-a L      label of the (A) rows (default: A's kernel_version tag; two\n"
"                       snapshots: the kernel release, else the file name)\n"
"      --label-b L\n"
"      --kernel-a NAME  'Kernel File' of A in the KERNELS block (default: tag kernel_file)\n"
"      --kernel-b NAME\n"
"      --alpha P        significance level for Welch's t-test, or the rank test of\n"
"                       two snapshots (default 0.05)\n"
"      --any-shape      compare sweeps of different pft fault shapes (PFT_SHAPE)\n"
"                       instead of refusing; every label then names its shape\n"
"  -o, --output FILE    write atomically to FILE instead of stdout\n");
}

/* compare A.snap B.snap: two recordings side by side (compare_snaps.h) */
static int compare_snapshots(const struct fl_compare_args *o)
{
	struct fl_cmp_snaps p;
	struct fl_out out;
	char err[512];
	int rc = 1;

	if (o->seed)
		return fl_usage_error("compare", "--seed is the layout of two pft-sweep directories, "
				      "not of two snapshots");
	if (fl_cmp_snaps_build(&p, o->a, o->b, o->alpha, err, sizeof(err))) {
		fprintf(stderr, "faultline compare: %s\n", err);
		return 1;
	}
	fl_cmp_snaps_label(&p, (const char *const[2]){ o->label[0], o->label[1] });
	if (!fl_out_open(&out, o->out)) {
		switch (o->fmt) {
		case FL_CMP_FMT_TEXT:
			fl_cmp_snaps_write_text(out.f, &p);
			break;
		case FL_CMP_FMT_JSON:
			fl_cmp_snaps_write_json(out.f, &p);
			break;
		case FL_CMP_FMT_CSV:
			fl_cmp_snaps_write_csv(out.f, &p);
			break;
		case FL_CMP_FMT_MD:
			fl_cmp_snaps_write_md(out.f, &p);
			break;
		}
		rc = fl_out_commit(&out) ? 1 : 0;
	}
	fl_cmp_snaps_free(&p);
	return rc;
}

/* 1 when P is a regular file (a snapshot), 0 otherwise (a sweep directory, or nothing). */
static int is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

int parse_compare_args(int argc, char **argv, struct fl_compare_args *a, char *err, size_t errlen)
{
	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "seed", no_argument, NULL, 'S' },
		{ "label-a", required_argument, NULL, 1 },
		{ "label-b", required_argument, NULL, 2 },
		{ "kernel-a", required_argument, NULL, 3 },
		{ "kernel-b", required_argument, NULL, 4 },
		{ "alpha", required_argument, NULL, 5 },
		{ "any-shape", no_argument, NULL, 6 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char *end;
	int opt;

	*a = (struct fl_compare_args){ .alpha = FL_SIGNIFICANCE_ALPHA };
	err[0] = '\0';
	fl_getopt_start();
	while ((opt = getopt_long(argc, argv, ":f:o:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!strcmp(optarg, "text"))
				a->fmt = FL_CMP_FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				a->fmt = FL_CMP_FMT_JSON;
			else if (!strcmp(optarg, "csv"))
				a->fmt = FL_CMP_FMT_CSV;
			else if (!strcmp(optarg, "markdown") || !strcmp(optarg, "md"))
				a->fmt = FL_CMP_FMT_MD;
			else
				return fl_args_bad(err, errlen, "unknown format '%s' "
					"(text, json, csv, markdown)", optarg);
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'S':
			a->seed = 1;
			break;
		case 1: case 2:
			a->label[opt - 1] = optarg;
			break;
		case 3: case 4:
			a->kernel[opt - 3] = optarg;
			break;
		case 5:
			errno = 0;
			a->alpha = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(a->alpha > 0 && a->alpha < 1))
				return fl_args_bad(err, errlen, "--alpha wants a number in (0, 1), "
					"got '%s'", optarg);
			break;
		case 6:
			a->any_shape = 1;
			break;
		case 'h':
			return FL_ARGS_HELP;
		default:
			return fl_args_getopt_bad(opt, argv, lo, err, errlen);
		}
	}
	if (argc - optind < 2)
		return fl_args_bad(err, errlen, optind < argc ? "missing B" : "missing A and B");
	if (argc - optind > 2)
		return fl_args_bad(err, errlen, "unexpected argument '%s'", argv[optind + 2]);
	if (a->seed && a->fmt != FL_CMP_FMT_TEXT)
		return fl_args_bad(err, errlen, "--seed applies to --format text only");
	a->a = argv[optind];
	a->b = argv[optind + 1];
	return FL_ARGS_RUN;
}

int cmd_compare(int argc, char **argv)
{
	struct fl_compare_args o;
	struct fl_cmp_view v;
	struct fl_out out;
	struct fl_cmp c;
	char err[512];
	int rc;

	rc = fl_args_exit(parse_compare_args(argc, argv, &o, err, sizeof(err)), "compare", err,
			  usage);
	if (rc >= 0)
		return rc;
	v = (struct fl_cmp_view){ .label = { o.label[0], o.label[1] },
				  .kernel = { o.kernel[0], o.kernel[1] }, .seed = o.seed };
	if (is_file(o.a) && is_file(o.b))
		return compare_snapshots(&o);
	if (is_file(o.a) || is_file(o.b)) {
		fprintf(stderr, "faultline compare: %s is a file and %s is not: give two snapshots "
			"or two pft-sweep directories\n", is_file(o.a) ? o.a : o.b,
			is_file(o.a) ? o.b : o.a);
		return 1;
	}
	if (fl_cmp_build(&c, o.a, o.b, o.alpha, err, sizeof(err))) {
		fprintf(stderr, "faultline compare: %s\n", err);
		return 1;
	}
	if (fl_cmp_shape_check(&c, o.any_shape, err, sizeof(err))) {
		fprintf(stderr, "faultline compare: %s\n", err);
		fl_cmp_free(&c);
		return 1;
	}
	for (unsigned int i = 0; i < c.nnotes; i++)
		fprintf(stderr, "faultline compare: note: %s\n", c.notes[i]);
	if (fl_out_open(&out, o.out)) {
		fl_cmp_free(&c);
		return 1;
	}
	switch (o.fmt) {
	case FL_CMP_FMT_TEXT:
		fl_cmp_write_text(out.f, &c, &v);
		break;
	case FL_CMP_FMT_JSON:
		fl_cmp_write_json(out.f, &c, &v);
		break;
	case FL_CMP_FMT_CSV:
		fl_cmp_write_csv(out.f, &c, &v);
		break;
	case FL_CMP_FMT_MD:
		fl_cmp_write_md(out.f, &c, &v);
		break;
	}
	fl_cmp_free(&c);
	return fl_out_commit(&out) ? 1 : 0;
}
