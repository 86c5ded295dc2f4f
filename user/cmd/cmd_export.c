// SPDX-License-Identifier: GPL-2.0
/*
 * faultline export --format json|csv|prom|text [--by cpu|llc|node|total]
 *                  [--prom-buckets coarse|full] FILE|DIR
 * Parses the arguments; the model (loading, grouping) is export.c, the
 * writers export_fmt.c (json, csv, text) and export_prom.c (Prometheus).
 * Formats: Documentation/formats.rst.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "export.h"
#include "export_out.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: faultline export --format json|csv|prom|text [OPTIONS] FILE|DIR\n"
"  FILE: a snapshot; DIR: every DIR/*.snap and DIR/snap/*.snap (record -o DIR/,\n"
"  pft-sweep results)\n"
"  -f, --format FMT        json (default), csv, prom, text\n"
"  -b, --by cpu|llc|node|total  group CPUs (default cpu); llc/node use the\n"
"                          snapshot's topology tags\n"
"      --topology-root DIR sysfs root for llc/node when a snapshot has no topology\n"
"                          tags (\"/\" = this machine)\n"
"      --run NAME          run label of a single FILE (default: its name)\n"
"      --prom-buckets coarse|full  prom le bounds: coarse (default), every half\n"
"                          power of two 32 ns..17 s; full: the histogram's 272\n"
"  -o, --output FILE       write atomically to FILE instead of stdout\n");
}

int parse_export_args(int argc, char **argv, struct fl_export_args *a, char *err, size_t errlen)
{
	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "by", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "topology-root", required_argument, NULL, 1 },
		{ "run", required_argument, NULL, 2 },
		{ "prom-buckets", required_argument, NULL, 3 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int opt, pb_set = 0;

	*a = (struct fl_export_args){ .fmt = FL_EXP_FMT_JSON, .by = FL_EXP_BY_CPU,
				      .prom_buckets = FL_PROM_BUCKETS_COARSE };
	err[0] = '\0';
	fl_getopt_start();
	while ((opt = getopt_long(argc, argv, ":f:b:o:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!strcmp(optarg, "json"))
				a->fmt = FL_EXP_FMT_JSON;
			else if (!strcmp(optarg, "csv"))
				a->fmt = FL_EXP_FMT_CSV;
			else if (!strcmp(optarg, "prom"))
				a->fmt = FL_EXP_FMT_PROM;
			else if (!strcmp(optarg, "text"))
				a->fmt = FL_EXP_FMT_TEXT;
			else
				return fl_args_bad(err, errlen, "unknown format '%s' "
					"(json, csv, prom, text)", optarg);
			break;
		case 'b': {
			enum fl_export_by by;

			if (fl_export_by_parse(optarg, &by))
				return fl_args_bad(err, errlen, "--by wants cpu, llc, node or "
					"total, got '%s'", optarg);
			a->by = by;
			break;
		}
		case 'o':
			a->out = optarg;
			break;
		case 1:
			a->topo_root = optarg;
			break;
		case 2:
			a->run = optarg;
			break;
		case 3: {
			enum fl_prom_buckets pb;

			if (fl_prom_buckets_parse(optarg, &pb))
				return fl_args_bad(err, errlen, "--prom-buckets wants coarse or "
					"full, got '%s'", optarg);
			a->prom_buckets = pb;
			pb_set = 1;
			break;
		}
		case 'h':
			return FL_ARGS_HELP;
		default:
			return fl_args_getopt_bad(opt, argv, lo, err, errlen);
		}
	}
	if (pb_set && a->fmt != FL_EXP_FMT_PROM)
		return fl_args_bad(err, errlen, "--prom-buckets is for --format prom");
	if (optind >= argc)
		return fl_args_bad(err, errlen, "missing FILE|DIR");
	if (optind < argc - 1)
		return fl_args_bad(err, errlen, "unexpected argument '%s'", argv[optind + 1]);
	a->in = argv[optind];
	return FL_ARGS_RUN;
}

int cmd_export(int argc, char **argv)
{
	struct fl_export_args a;
	struct fl_export e = { 0 };
	struct fl_out o;
	char err[600];
	int rc;

	rc = fl_args_exit(parse_export_args(argc, argv, &a, err, sizeof(err)), "export", err,
			  usage);
	if (rc >= 0)
		return rc;
	e.by = a.by;
	e.prom_buckets = a.prom_buckets;
	rc = fl_export_load(&e, a.in, a.run, a.topo_root, err, sizeof(err));
	if (rc) {
		fl_export_free(&e);
		/* -2: an option that does not fit the input (--run with a DIR) */
		if (rc == -2)
			return fl_usage_error("export", "%s", err);
		fprintf(stderr, "faultline export: %s\n", err);
		return 1;
	}
	/* fl_out_open and fl_out_commit say what failed themselves */
	if (!(rc = fl_out_open(&o, a.out))) {
		switch (a.fmt) {
		case FL_EXP_FMT_JSON:
			fl_export_json(o.f, &e);
			break;
		case FL_EXP_FMT_CSV:
			fl_export_csv(o.f, &e);
			break;
		case FL_EXP_FMT_PROM:
			fl_export_prom(o.f, &e);
			break;
		case FL_EXP_FMT_TEXT:
			fl_export_text(o.f, &e);
			break;
		}
		rc = fl_out_commit(&o);
	}
	fl_export_free(&e);
	return rc ? 1 : 0;
}
