/* SPDX-License-Identifier: GPL-2.0 */
/* Subcommands of the faultline collector; one file each (user/cmd/cmd_*.c). */
#ifndef FAULTLINE_COMMANDS_H
#define FAULTLINE_COMMANDS_H

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <faultline/abi.h>
#include "backend.h"
#include "errbuf.h"
#include "topology.h"

int cmd_record(int argc, char **argv);	/* cmd_record.c */
int cmd_report(int argc, char **argv);	/* cmd_report.c */
int cmd_probe(int argc, char **argv);	/* cmd_probe.c */
int cmd_export(int argc, char **argv);	/* cmd_export.c */
int cmd_compare(int argc, char **argv);	/* cmd_compare.c */
int cmd_plot(int argc, char **argv);	/* cmd_plot.c */
int cmd_tags(int argc, char **argv);	/* cmd_tags.c */
int cmd_check(int argc, char **argv);	/* cmd_check.c */
int cmd_serve(int argc, char **argv);	/* cmd_serve.c */

/*
 * Each command's options are read by parse_X_args() into struct
 * fl_X_args and nothing else happens: no file is opened, nothing loaded,
 * nothing printed, no exit, so that the parsers can be fuzzed
 * (tests/fuzz/fuzz_cli.c) and unit-tested.  They return FL_ARGS_RUN,
 * FL_ARGS_HELP (-h: usage on stdout, exit 0) or FL_ARGS_BAD with the
 * one-line reason in ERR (which option or argument, and what is wrong).
 * Strings point into ARGV.
 *
 * The convention every command follows (fl_args_exit, fl_usage_error;
 * Documentation/faultline.8.rst, EXIT STATUS):
 *   usage error (unknown option, missing or extra argument, bad value):
 *     "faultline CMD: REASON (faultline help CMD)", one line on stderr, exit 2;
 *   runtime failure (a file that cannot be read or written, a refused
 *     attach): "faultline CMD: ...", one line on stderr, exit 1;
 *   the usage text only for -h/--help and "faultline help CMD", on stdout.
 */
enum fl_args_ret { FL_ARGS_RUN, FL_ARGS_HELP, FL_ARGS_BAD };

struct fl_record_args {
	const char *out;		/* NULL: the default name */
	int backend_req;		/* FL_REC_B_* (backend.h) */
	unsigned int tier_req;		/* FL_TIER_*, 0 = best */
	bool system_wide;
	unsigned int pid;
	double interval, duration;	/* seconds, 0 = none */
	bool quiet;
	bool phases, locks;
	bool self_cost;			/* time our BPF programs (kernel bpf stats) */
	bool time_hmf;			/* --handle-mm-fault: time handle_mm_fault calls */
	const char *hmf_opt;		/* the spelling given: --handle-mm-fault or --hmf */
	bool mmap_lock;			/* --mmap-lock: where they are off by default for their cost */
	bool blame;			/* --blame: mmap_lock write holders (implies --locks) */
	char **cmd;			/* NULL-terminated, or NULL */
};

struct fl_report_args {
	bool per_cpu, hist, raw, phases, locks, blame;
	enum fl_by by;
	const char *path;
};

enum fl_exp_fmt { FL_EXP_FMT_JSON, FL_EXP_FMT_CSV, FL_EXP_FMT_PROM, FL_EXP_FMT_TEXT };
struct fl_export_args {
	enum fl_exp_fmt fmt;
	int by;				/* enum fl_export_by (export.h) */
	int prom_buckets;		/* enum fl_prom_buckets (export.h), --prom-buckets */
	const char *out, *topo_root, *run, *in;
};

#define FL_CMP_MAX_LIST	64
enum fl_cmp_fmt { FL_CMP_FMT_TEXT, FL_CMP_FMT_JSON, FL_CMP_FMT_CSV, FL_CMP_FMT_MD };
struct fl_compare_args {
	enum fl_cmp_fmt fmt;
	int seed;			/* the seed's exact columns and nothing else */
	const char *label[2], *kernel[2], *out;
	double alpha;
	int any_shape;			/* --any-shape: A and B of different pft shapes */
	const char *test;		/* --test: the will-it-scale test to read */
	int precision;			/* --precision N: significant digits; 0 = the default */
	int hist;			/* --hist: two recordings' buckets (text, markdown, csv) */
	const char *a, *b;		/* NULL with -a/-b */
	/* -a A1 A2 ... -b B1 B2 ...: recordings (or directories of them) a side */
	const char *list[2][FL_CMP_MAX_LIST];
	unsigned int nlist[2];
};

struct fl_plot_args {
	const char *outdir;
	int png, svg;
	const char *label[2];		/* NULL: the default */
	unsigned int heat_threads;
	int any_shape;			/* --any-shape, as compare's */
	const char *test;		/* --test, as compare's */
	const char *a, *b;		/* b may be NULL */
};

struct fl_tags_args {
	const char *root;		/* "" = this machine */
	int topology;
};

struct fl_check_args {
	bool quiet;
	char **files;			/* NULL-terminated */
};

int parse_record_args(int argc, char **argv, struct fl_record_args *a, char *err, size_t errlen);
struct fl_snapshot;
int fl_record_tag_window(struct fl_snapshot *s, const char *cmdline, const char *caveat,
			 long long interval_index, char *err, size_t errlen);
int parse_report_args(int argc, char **argv, struct fl_report_args *a, char *err, size_t errlen);
int parse_probe_args(int argc, char **argv, char *err, size_t errlen);
int parse_export_args(int argc, char **argv, struct fl_export_args *a, char *err, size_t errlen);
int parse_compare_args(int argc, char **argv, struct fl_compare_args *a, char *err, size_t errlen);
int parse_plot_args(int argc, char **argv, struct fl_plot_args *a, char *err, size_t errlen);
int parse_tags_args(int argc, char **argv, struct fl_tags_args *a, char *err, size_t errlen);
int parse_check_args(int argc, char **argv, struct fl_check_args *a, char *err, size_t errlen);

/* FL_ARGS_BAD with the reason in ERR (fl_fail's, errbuf.h); for the parsers. */
#define fl_args_bad(err, errlen, ...)	(fl_fail(err, errlen, __VA_ARGS__), FL_ARGS_BAD)

/*
 * Before a parser's first getopt_long(): a fresh scan (optind = 0 also
 * forgets a cluster the previous parse stopped in) and no complaint of
 * getopt's own on stderr: the parser says what is wrong (fl_args_getopt_bad).
 * Each optstring starts with ':' (after a '+'), so that a missing value
 * comes back as ':', an unknown option as '?'.
 */
static inline void fl_getopt_start(void)
{
	optind = 0;
	opterr = 0;
}

/*
 * FL_ARGS_BAD with the reason for what getopt_long() just refused (C is
 * ':' or '?'; LO the long options it was given): "unknown option '--x'",
 * "unknown option '-x'", "option '-o' needs a value", "option '--all'
 * takes no value".  For the parsers' default case.
 */
static inline int fl_args_getopt_bad(int c, char **argv, const struct option *lo,
				     char *err, size_t errlen)
{
	const char *w = optind > 1 ? argv[optind - 1] : "";
	size_t n;

	if (c == ':') {
		/* a long option ends argv; a short one is named by optopt */
		if (!strncmp(w, "--", 2))
			return fl_args_bad(err, errlen, "option '%s' needs a value", w);
		return fl_args_bad(err, errlen, "option '-%c' needs a value", optopt);
	}
	n = strcspn(w, "=");
	if (!optopt && !strncmp(w, "--", 2)) {	/* unknown or ambiguous long option */
		int match = 0;

		for (const struct option *o = lo; o && o->name; o++)
			match += n > 2 && !strncmp(o->name, w + 2, n - 2);
		return fl_args_bad(err, errlen, "%s option '%.*s'",
				   match > 1 ? "ambiguous" : "unknown", (int)n, w);
	}
	/* "--name=VALUE" for a long option that takes none: optopt is its val */
	if (!strncmp(w, "--", 2) && w[n] == '=')
		for (const struct option *o = lo; o && o->name; o++)
			if (o->val == optopt && o->has_arg == no_argument &&
			    !strncmp(o->name, w + 2, n - 2))
				return fl_args_bad(err, errlen, "option '--%s' takes no value",
						   o->name);
	if (optopt > ' ' && optopt < 127)
		return fl_args_bad(err, errlen, "unknown option '-%c'", optopt);
	return fl_args_bad(err, errlen, "unknown option character 0x%02x",
			   (unsigned int)optopt & 0xff);
}

/* -b auto|bpf|kmod (record, serve): FL_REC_B_* in *out, 0; else -1. */
static inline int fl_parse_backend(const char *s, int *out)
{
	if (!strcmp(s, "auto"))
		*out = FL_REC_B_AUTO;
	else if (!strcmp(s, "bpf"))
		*out = FL_REC_B_BPF;
	else if (!strcmp(s, "kmod"))
		*out = FL_REC_B_KMOD;
	else
		return -1;
	return 0;
}

/* --tier fentry|kprobe|tracepoint (record, serve): FL_TIER_* in *out, 0; else -1. */
static inline int fl_parse_tier(const char *s, unsigned int *out)
{
	if (!strcmp(s, "fentry"))
		*out = FL_TIER_FENTRY;
	else if (!strcmp(s, "kprobe"))
		*out = FL_TIER_KPROBE;
	else if (!strcmp(s, "tracepoint"))
		*out = FL_TIER_TRACEPOINT;
	else
		return -1;
	return 0;
}

/* SEC seconds, finite, > 0, >= MIN and <= 1e7: 0, else -1 (record's and serve's -i / -d). */
static inline int fl_parse_secs(const char *s, double min, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v < min || v > 1e7)
		return -1;
	*out = v;
	return 0;
}

/*
 * A usage error, the one way: "faultline CMD: WHY (faultline help CMD)"
 * on stderr; returns 2, the exit status.  For what the parsers refuse
 * (fl_args_exit) and the few combinations a command can only refuse once
 * it has looked at its input.
 */
static inline __attribute__((format(printf, 2, 3)))
int fl_usage_error(const char *cmd, const char *fmt, ...)
{
	char why[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	fprintf(stderr, "faultline %s: %s (faultline help %s)\n", cmd,
		why[0] ? why : "bad arguments", cmd);
	return 2;
}

/*
 * What a command does with a parser's verdict RET: -1 to go on and run,
 * else the exit status, after the usage (-h, on stdout) or the usage
 * error line is printed.
 */
static inline int fl_args_exit(int ret, const char *cmd, const char *err,
			       void (*usage)(FILE *f))
{
	if (ret == FL_ARGS_RUN)
		return -1;
	if (ret == FL_ARGS_HELP) {
		usage(stdout);
		return 0;
	}
	return fl_usage_error(cmd, "%s", err);
}

#endif
