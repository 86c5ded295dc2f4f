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
#include "compare_snaps.h"
#include "export_out.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: faultline compare [OPTIONS] A B\n"
"       faultline compare [OPTIONS] -a A1.snap [A2.snap ...] -b B1.snap [B2.snap ...]\n"
"  A, B: pft-sweep result directories (base kernel A, test kernel B), wis sweeps or\n"
"  mmtests wis results (benchlog-<test>_<model>-<N>), two\n"
"  snapshots (record -o): the two recordings side by side, a rank test per\n"
"  histogram; or two directories of snapshots: several recordings a side, each\n"
"  figure's COUNT ... STDDEV over them and Welch's p\n"
"  -a, -b FILE|DIR...   the recordings of A and of B (snapshots, or directories of them)\n"
"  -f, --format FMT     text (default, the seed report's layout), json, csv, markdown\n"
"      --seed           text with the seed's columns only (no direction, no p-value)\n"
"      --label-a L      label of the (A) rows (default: what differs between A and B:\n"
"                       kernel release, kernel_build (uname -v), kernel_file tag,\n"
"                       else the file or directory name)\n"
"      --label-b L\n"
"      --kernel-a NAME  'Kernel File' of A in the KERNELS block (default: tag kernel_file)\n"
"      --kernel-b NAME\n"
"      --alpha P        significance level for Welch's t-test, or the rank test of\n"
"                       two snapshots (default 0.05); *x.xx%%* marks are mmtests'\n"
"                       rule at its own fixed 95%%\n"
"      --precision N    text, markdown: N significant digits (1-17; default: snapshots 4,\n"
"                       sweeps every digit, as --seed)\n"
"      --hist           snapshots: text, markdown, csv also print the buckets of\n"
"                       each rank-tested histogram (json always has them)\n"
"      --any-shape      compare sweeps of different pft fault shapes (PFT_SHAPE)\n"
"                       instead of refusing; every label then names its shape\n"
"      --test NAME      the will-it-scale test to compare (<test>_<model>, e.g.\n"
"                       page_fault1_threads) where A and B hold several\n"
"  -o, --output FILE    write atomically to FILE instead of stdout\n");
}

/* PATH's snapshots appended to L (PATH itself when a file); -1 with err. */
static int expand(const char *path, char ***l, unsigned int *n, int *dirs, char *err, size_t errlen)
{
	char **names = NULL, **nl;
	unsigned int nn = 0;
	struct stat st;

	if (stat(path, &st))
		return fl_fail(err, errlen, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		names = malloc(sizeof(*names));
		if (!names || !(names[0] = strdup(path))) {
			free(names);
			return fl_fail(err, errlen, "out of memory");
		}
		nn = 1;
	} else {
		if (fl_snapshot_list_dir(path, &names, &nn, err, errlen))
			return -1;
		if (!nn)
			return fl_fail(err, errlen, "%s: no snapshots (NAME.snap) in it", path);
		for (unsigned int k = 0; k < nn; k++) {
			char *full;

			if (asprintf(&full, "%s/%s", path, names[k]) < 0) {
				fl_snapshot_names_free(names, nn);
				return fl_fail(err, errlen, "out of memory");
			}
			free(names[k]);
			names[k] = full;
		}
		(*dirs)++;
	}
	nl = realloc(*l, (*n + nn) * sizeof(*nl));
	if (!nl) {
		fl_snapshot_names_free(names, nn);
		return fl_fail(err, errlen, "out of memory");
	}
	memcpy(nl + *n, names, nn * sizeof(*nl));
	free(names);
	*l = nl;
	*n += nn;
	return 0;
}

/*
 * compare A.snap B.snap, or several recordings a side: side by side
 * (compare_snaps.h).  in[s][0..nin[s]): files or directories of snapshots.
 */
static int parse_rest(int argc, char **argv, struct fl_compare_args *a, char *err, size_t errlen);

static int compare_snapshots(const struct fl_compare_args *o, const char *const in[2][FL_CMP_MAX_LIST],
			     const unsigned int nin[2])
{
	const struct fl_csn_view view = { .precision = o->precision, .hist = o->hist };
	char **l[2] = { NULL, NULL }, err[512];
	unsigned int n[2] = { 0, 0 };
	struct fl_cmp_snaps p;
	struct fl_out out;
	int rc = 1, dirs[2] = { 0, 0 };

	if (o->seed)
		return fl_usage_error("compare", "--seed is the layout of two pft-sweep directories, "
				      "not of snapshots");
	for (int s = 0; s < 2; s++)
		for (unsigned int k = 0; k < nin[s]; k++)
			if (expand(in[s][k], &l[s], &n[s], &dirs[s], err, sizeof(err))) {
				fprintf(stderr, "faultline compare: %s\n", err);
				goto out;
			}
	if (fl_cmp_snaps_build_n(&p, (const char *const *[2]){ (const char *const *)l[0],
			(const char *const *)l[1] }, n, o->alpha, err, sizeof(err))) {
		fprintf(stderr, "faultline compare: %s\n", err);
		goto out;
	}
	/* a side read from one directory is named by it */
	for (int s = 0; s < 2; s++)
		p.dir[s] = nin[s] == 1 && dirs[s] ? in[s][0] : NULL;
	fl_cmp_snaps_label(&p, (const char *const[2]){ o->label[0], o->label[1] });
	if (!fl_out_open(&out, o->out)) {
		switch (o->fmt) {
		case FL_CMP_FMT_TEXT:
			fl_cmp_snaps_write_text(out.f, &p, &view);
			break;
		case FL_CMP_FMT_JSON:
			fl_cmp_snaps_write_json(out.f, &p);
			break;
		case FL_CMP_FMT_CSV:
			fl_cmp_snaps_write_csv(out.f, &p, &view);
			break;
		case FL_CMP_FMT_MD:
			fl_cmp_snaps_write_md(out.f, &p, &view);
			break;
		}
		rc = fl_out_commit(&out) ? 1 : 0;
	}
	fl_cmp_snaps_free(&p);
out:
	for (int s = 0; s < 2; s++) {
		fl_snapshot_names_free(l[s], n[s]);
	}
	return rc;
}

/* 1 when P is a regular file (a snapshot), 0 otherwise (a sweep directory, or nothing). */
static int is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

/*
 * 1 when P is a directory with snapshots directly in it (a sweep keeps its own
 * in snap/; will-it-scale logs may have the mmtests hooks' beside them: they
 * make it a sweep).
 */
static int is_snap_dir(const char *p)
{
	char **names = NULL, err[256];
	unsigned int n = 0;
	struct stat st;

	if (stat(p, &st) || !S_ISDIR(st.st_mode) || fl_sweep_dir_has_logs(p) ||
	    fl_snapshot_list_dir(p, &names, &n, err, sizeof(err)))
		return 0;
	fl_snapshot_names_free(names, n);
	return n > 0;
}

/*
 * -a X Y ... -b Z ...: the words after -a / -b up to the next option are
 * that side's; they are taken out of ARGV (into av, for getopt).  0, or -1
 * with err.
 */
static int take_lists(int argc, char **argv, char **av, int *ac, struct fl_compare_args *a,
		      char *err, size_t errlen)
{
	*ac = 0;
	for (int i = 0; i < argc; i++) {
		int s = !strcmp(argv[i], "-a") ? 0 : !strcmp(argv[i], "-b") ? 1 : -1;

		if (i == 0 || s < 0) {
			av[(*ac)++] = argv[i];
			if (!strcmp(argv[i], "--"))
				for (i++; i < argc; i++)
					av[(*ac)++] = argv[i];
			continue;
		}
		if (a->nlist[s])
			return fl_args_bad(err, errlen, "-%c given twice (list its recordings "
					   "after one -%c)", 'a' + s, 'a' + s);
		for (; i + 1 < argc && argv[i + 1][0] != '-'; i++) {
			if (a->nlist[s] == FL_CMP_MAX_LIST)
				return fl_args_bad(err, errlen, "-%c: more than %d recordings (give "
						   "a directory of them)", 'a' + s, FL_CMP_MAX_LIST);
			a->list[s][a->nlist[s]++] = argv[i + 1];
		}
		if (!a->nlist[s])
			return fl_args_bad(err, errlen, "-%c wants at least one snapshot or "
					   "directory", 'a' + s);
	}
	av[*ac] = NULL;
	return 0;
}

int parse_compare_args(int argc, char **argv, struct fl_compare_args *a, char *err, size_t errlen)
{
	char **av = calloc(argc + 1, sizeof(*av));
	int ac, rc;

	*a = (struct fl_compare_args){ .alpha = FL_SIGNIFICANCE_ALPHA };
	err[0] = '\0';
	if (!av)
		return fl_args_bad(err, errlen, "out of memory");
	rc = take_lists(argc, argv, av, &ac, a, err, errlen);
	if (!rc)
		rc = parse_rest(ac, av, a, err, errlen);
	free(av);
	return rc;
}

static int parse_rest(int argc, char **argv, struct fl_compare_args *a, char *err, size_t errlen)
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
		{ "precision", required_argument, NULL, 7 },
		{ "test", required_argument, NULL, 8 },
		{ "hist", no_argument, NULL, 9 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char *end;
	long v;
	int opt;

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
		case 7:
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v < 1 || v > 17)
				return fl_args_bad(err, errlen, "--precision wants significant digits, "
					"1 to 17, got '%s'", optarg);
			a->precision = (int)v;
			break;
		case 8:
			a->test = optarg;
			break;
		case 9:
			a->hist = 1;
			break;
		case 'h':
			return FL_ARGS_HELP;
		default:
			return fl_args_getopt_bad(opt, argv, lo, err, errlen);
		}
	}
	if (a->seed && a->fmt != FL_CMP_FMT_TEXT)
		return fl_args_bad(err, errlen, "--seed applies to --format text only");
	if (a->seed && a->precision)
		return fl_args_bad(err, errlen, "--seed prints every digit, as the seed; "
				   "--precision is for the other layouts");
	if (a->precision && a->fmt != FL_CMP_FMT_TEXT && a->fmt != FL_CMP_FMT_MD)
		return fl_args_bad(err, errlen, "--precision applies to text and markdown "
				   "(json and csv carry every digit)");
	if (a->hist && a->seed)
		return fl_args_bad(err, errlen, "--hist prints two recordings' histograms; --seed "
				   "is the layout of two sweeps");
	if (a->hist && a->fmt == FL_CMP_FMT_JSON)
		return fl_args_bad(err, errlen, "--hist applies to text, markdown and csv (json "
				   "always has the buckets)");
	if (a->nlist[0] || a->nlist[1]) {
		if (!a->nlist[0] || !a->nlist[1])
			return fl_args_bad(err, errlen, "-%c without -%c", a->nlist[0] ? 'a' : 'b',
					   a->nlist[0] ? 'b' : 'a');
		if (optind < argc)
			return fl_args_bad(err, errlen, "unexpected argument '%s' (with -a/-b, "
					   "every recording follows one of them)", argv[optind]);
		return FL_ARGS_RUN;
	}
	if (argc - optind < 2)
		return fl_args_bad(err, errlen, optind < argc ? "missing B" : "missing A and B");
	if (argc - optind > 2)
		return fl_args_bad(err, errlen, "unexpected argument '%s'", argv[optind + 2]);
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
				  .kernel = { o.kernel[0], o.kernel[1] }, .seed = o.seed,
				  .precision = o.precision };
	if (o.nlist[0])
		return compare_snapshots(&o, (const char *const (*)[FL_CMP_MAX_LIST])o.list, o.nlist);
	/* --test: will-it-scale results, whatever snapshots lie beside them */
	if ((is_file(o.a) && is_file(o.b)) || (!o.test && is_snap_dir(o.a) && is_snap_dir(o.b))) {
		const char *in[2][FL_CMP_MAX_LIST] = { { o.a }, { o.b } };

		return compare_snapshots(&o, (const char *const (*)[FL_CMP_MAX_LIST])in,
					 (const unsigned int[2]){ 1, 1 });
	}
	if (!o.test && is_snap_dir(o.a) != is_snap_dir(o.b)) {
		fprintf(stderr, "faultline compare: %s is a directory of snapshots and %s is not: give "
			"two of them, two snapshots or two pft-sweep directories\n",
			is_snap_dir(o.a) ? o.a : o.b, is_snap_dir(o.a) ? o.b : o.a);
		return 1;
	}
	if (is_file(o.a) || is_file(o.b)) {
		fprintf(stderr, "faultline compare: %s is a file and %s is not: give two snapshots "
			"or two pft-sweep directories\n", is_file(o.a) ? o.a : o.b,
			is_file(o.a) ? o.b : o.a);
		return 1;
	}
	if (o.hist) {
		fprintf(stderr, "faultline compare: --hist: the histograms are two recordings' "
			"(snapshots); %s and %s are not\n", o.a, o.b);
		return 1;
	}
	if (fl_cmp_build_test(&c, o.a, o.b, o.test, o.alpha, err, sizeof(err))) {
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
