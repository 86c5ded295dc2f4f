// SPDX-License-Identifier: GPL-2.0
/* pft option parsing: strict, one-line errors, never exits (unit-tested). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "../../user/errbuf.h"	/* fl_fail: the project's one error reporter */

#define PFT_DEFAULT_BYTES	(64ULL << 20)
#define PFT_MAX_SLEEP_S		86400
#define PFT_MAX_BYTES		(1ULL << 52)	/* 4 PiB: keeps page arithmetic exact */

enum { OPT_THP = 0x100, OPT_LATENCY, OPT_JSON, OPT_STRICT, OPT_CHECK, OPT_FILE, OPT_TMPFS,
       OPT_PRIVATE_WRITE, OPT_SHARED_WRITE, OPT_READ, OPT_COLD };

static const struct option long_opts[] = {
	{ "thp",     required_argument, NULL, OPT_THP },
	{ "latency", no_argument,       NULL, OPT_LATENCY },
	{ "json",    no_argument,       NULL, OPT_JSON },
	{ "strict",  no_argument,       NULL, OPT_STRICT },
	{ "check",   no_argument,       NULL, OPT_CHECK },
	{ "file",    required_argument, NULL, OPT_FILE },
	{ "tmpfs",   no_argument,       NULL, OPT_TMPFS },
	{ "private-write", no_argument, NULL, OPT_PRIVATE_WRITE },
	{ "shared-write", no_argument,  NULL, OPT_SHARED_WRITE },
	{ "read",    no_argument,       NULL, OPT_READ },
	{ "cold",    no_argument,       NULL, OPT_COLD },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void pft_usage(FILE *f)
{
	fprintf(f,
"usage: pft [-m SIZE[KMGP]] [-t N | -n N] [-c N] [-z] [-a] [-s SEC] [-T] [-M] [-v]\n"
"           [--thp=never|always|default] [--latency] [--json] [--strict] [--check]\n"
"           [--file PATH [--cold] | --tmpfs] [--private-write | --shared-write | --read]\n"
"       pft --series MIN MAX [NCPUS]\n"
"  -m SIZE   total memory to fault (bytes; K, M, G = KiB, MiB, GiB; P = pages;\n"
"            default 64M), split evenly over the workers\n"
"  -t N      N threads sharing one mm (default 1)\n"
"  -n N      N processes, one mm each (exclusive with -t); at most %u workers\n"
"  -c N      cache lines written per page (default 1)\n"
"  -z        memset(0) each worker's area instead of touching cache lines\n"
"  -a        pin worker i to allowed CPU i mod nr_allowed\n"
"  -s SEC    sleep SEC seconds after the loop, memory still mapped\n"
"  -T        print the column header line\n"
"  -M        one mapping (VMA) per worker instead of one shared mapping\n"
"  -v        verbose (repeat for more)\n"
"  --thp=    never: MADV_NOHUGEPAGE (default); always: MADV_HUGEPAGE;\n"
"            default: no madvise, the system's THP setting applies\n"
"  --latency per-page latency histogram (p50/p90/p99/p99.9/max)\n"
"  --json    one JSON object instead of the classic line\n"
"  --strict  exit %d when the measured minor faults differ from the expected\n"
"            count (pages; fault-around windows with --read) by > 1%%\n"
"  --file PATH  fault a file (created or truncated, written, fsynced and read\n"
"            back first, so the faults are minor; removed after if pft created it)\n"
"  --cold    with --file: drop the file's pages from the page cache after the\n"
"            fsync instead of reading it back: faults read from storage (major);\n"
"            the fault count then follows readahead, so not with --strict\n"
"  --tmpfs   the same on a memfd (tmpfs/shmem)\n"
"  --private-write  MAP_PRIVATE, write: COW of a page-cache page (file default)\n"
"  --shared-write   MAP_SHARED, write: one fault per page\n"
"  --read   MAP_PRIVATE, read: one fault per fault-around window\n"
"            (/sys/kernel/debug/fault_around_bytes, default 64 KiB)\n"
"  --check   validate the options and exit (0, or 2 with the reason)\n"
"  --series  print mmtests' large-stride client series from MIN to MAX\n"
"            (NCPUS: default the online CPUs)\n",
		PFT_MAX_WORKERS, PFT_EXIT_DISHONEST);
}

/* Decimal digits only: no sign, no space, no base prefix, no overflow. */
static int parse_digits(const char *s, const char **end, unsigned long long *out)
{
	unsigned long long v;
	char *e;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &e, 10);
	if (errno == ERANGE)
		return -1;
	*end = e;
	*out = v;
	return 0;
}

int pft_parse_uint(const char *s, unsigned long min, unsigned long max,
		   unsigned long *out)
{
	unsigned long long v;
	const char *e;

	if (parse_digits(s, &e, &v) || *e != '\0')
		return -1;
	if (v < min || v > max)
		return -1;
	*out = (unsigned long)v;
	return 0;
}

int pft_parse_size(const char *s, size_t page_size, unsigned long long *out)
{
	unsigned long long v, mul = 1;
	const char *e;

	if (parse_digits(s, &e, &v))
		return -1;
	if (*e) {
		switch (*e) {
		case 'k': case 'K': mul = 1ULL << 10; break;
		case 'm': case 'M': mul = 1ULL << 20; break;
		case 'g': case 'G': mul = 1ULL << 30; break;
		case 'p': case 'P': mul = page_size; break;
		default: return -1;
		}
		if (e[1] != '\0')
			return -1;
	}
	if (v == 0 || v > PFT_MAX_BYTES / mul)
		return -1;
	*out = v * mul;
	return 0;
}

const char *pft_thp_name(enum pft_thp t)
{
	switch (t) {
	case PFT_THP_NEVER: return "never";
	case PFT_THP_ALWAYS: return "always";
	default: return "default";
	}
}

const char *pft_shape_name(enum pft_shape s)
{
	switch (s) {
	case PFT_SHAPE_PRIVATE_WRITE: return "private-write";
	case PFT_SHAPE_SHARED_WRITE: return "shared-write";
	case PFT_SHAPE_READ: return "read";
	default: return "anon";
	}
}

const char *pft_backing_name(enum pft_backing b)
{
	switch (b) {
	case PFT_BACK_FILE: return "file";
	case PFT_BACK_TMPFS: return "tmpfs";
	default: return "anon";
	}
}

static int parse_series(int argc, char **argv, struct pft_opts *o,
			char *err, size_t errlen)
{
	unsigned long v[3] = { 0, 0, 0 };
	int i;

	if (argc < 4 || argc > 5)
		return fl_fail(err, errlen, "--series takes MIN MAX [NCPUS]");
	for (i = 2; i < argc; i++)
		if (pft_parse_uint(argv[i], 1, 1 << 20, &v[i - 2]))
			return fl_fail(err, errlen, "--series: invalid number '%s' (1..%u)",
				       argv[i], 1u << 20);
	if (v[0] > v[1])
		return fl_fail(err, errlen, "--series: MIN %lu > MAX %lu", v[0], v[1]);
	o->series = true;
	o->series_min = v[0];
	o->series_max = v[1];
	o->series_ncpus = v[2];
	return 0;
}

/* What a parse has seen beyond *o, for the checks across options. */
struct parse_seen {
	bool t, n, shape;	/* -t, -n, a shape option */
};

static void set_defaults(struct pft_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->bytes = PFT_DEFAULT_BYTES;
	o->workers = 1;
	o->clines = 1;
	o->thp = PFT_THP_NEVER;
}

/* -t N or -n N. */
static int parse_workers(int c, const char *arg, struct pft_opts *o,
			 struct parse_seen *seen, char *err, size_t errlen)
{
	unsigned long v;

	if (pft_parse_uint(arg, 1, ULONG_MAX, &v))
		return fl_fail(err, errlen, "invalid worker count '%s' for -%c", arg, c);
	if (v > PFT_MAX_WORKERS)
		return fl_fail(err, errlen, "%lu workers refused: at most %u",
			       v, PFT_MAX_WORKERS);
	if (c == 't')
		seen->t = true;
	else
		seen->n = true;
	o->workers = v;
	o->processes = c == 'n';
	return 0;
}

static int parse_thp(const char *arg, struct pft_opts *o, char *err, size_t errlen)
{
	if (!strcmp(arg, "never"))
		o->thp = PFT_THP_NEVER;
	else if (!strcmp(arg, "always"))
		o->thp = PFT_THP_ALWAYS;
	else if (!strcmp(arg, "default"))
		o->thp = PFT_THP_DEFAULT;
	else
		return fl_fail(err, errlen, "invalid --thp '%s' (never|always|default)", arg);
	return 0;
}

/* --file PATH or --tmpfs. */
static int parse_backing(int c, const char *arg, struct pft_opts *o,
			 char *err, size_t errlen)
{
	if (o->backing != PFT_BACK_ANON)
		return fl_fail(err, errlen, "--file and --tmpfs: give one of them once");
	if (c == OPT_FILE && !arg[0])
		return fl_fail(err, errlen, "--file needs a path");
	o->backing = c == OPT_FILE ? PFT_BACK_FILE : PFT_BACK_TMPFS;
	o->path = c == OPT_FILE ? arg : NULL;
	return 0;
}

/* --private-write, --shared-write or --read. */
static int parse_shape(int c, struct pft_opts *o, struct parse_seen *seen,
		       char *err, size_t errlen)
{
	if (seen->shape)
		return fl_fail(err, errlen, "--private-write, --shared-write and --read "
			       "are mutually exclusive");
	seen->shape = true;
	o->shape = c == OPT_READ ? PFT_SHAPE_READ :
		   c == OPT_SHARED_WRITE ? PFT_SHAPE_SHARED_WRITE :
		   PFT_SHAPE_PRIVATE_WRITE;
	return 0;
}

/* getopt_long's ':' (missing argument) or '?' (unknown option). */
static int getopt_error(int c, char **argv, char *err, size_t errlen)
{
	if (c == ':') {
		if (optopt > 0 && optopt < 0x100)
			return fl_fail(err, errlen, "option -%c needs an argument", optopt);
		return fl_fail(err, errlen, "option '%s' needs an argument", argv[optind - 1]);
	}
	if (optopt > 0 && optopt < 0x100)
		return fl_fail(err, errlen, "unknown option -%c", optopt);
	return fl_fail(err, errlen, "unknown option '%s'", argv[optind - 1]);
}

/* One option C (argument ARG) from getopt_long into *o. */
static int parse_opt(int c, char *arg, char **argv, struct pft_opts *o,
		     struct parse_seen *seen, size_t page_size, size_t line_size,
		     char *err, size_t errlen)
{
	unsigned long v;

	switch (c) {
	case 'm':
		if (pft_parse_size(arg, page_size, &o->bytes))
			return fl_fail(err, errlen,
				       "invalid size '%s' for -m (N[KMGP], 0 < size <= 2^52 bytes)", arg);
		return 0;
	case 't':
	case 'n':
		return parse_workers(c, arg, o, seen, err, errlen);
	case 'c':
		if (pft_parse_uint(arg, 1, page_size / line_size, &v))
			return fl_fail(err, errlen, "invalid cache line count '%s' for -c (1..%zu)",
				       arg, page_size / line_size);
		o->clines = v;
		return 0;
	case 's':
		if (pft_parse_uint(arg, 0, PFT_MAX_SLEEP_S, &v))
			return fl_fail(err, errlen, "invalid seconds '%s' for -s (0..%u)",
				       arg, PFT_MAX_SLEEP_S);
		o->sleep_s = v;
		return 0;
	case 'z':
		o->bzero = true;
		return 0;
	case 'a':
		o->affinity = true;
		return 0;
	case 'T':
		o->title = true;
		return 0;
	case 'M':
		o->multimap = true;
		return 0;
	case 'v':
		o->verbose++;
		return 0;
	case 'h':
		o->help = true;
		return 0;
	case OPT_LATENCY:
		o->latency = true;
		return 0;
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_STRICT:
		o->strict = true;
		return 0;
	case OPT_CHECK:
		o->check = true;
		return 0;
	case OPT_COLD:
		o->cold = true;
		return 0;
	case OPT_THP:
		return parse_thp(arg, o, err, errlen);
	case OPT_FILE:
	case OPT_TMPFS:
		return parse_backing(c, arg, o, err, errlen);
	case OPT_PRIVATE_WRITE:
	case OPT_SHARED_WRITE:
	case OPT_READ:
		return parse_shape(c, o, seen, err, errlen);
	default:
		return getopt_error(c, argv, err, errlen);
	}
}

/* The rules across options, once all are parsed. */
static int check_opts(struct pft_opts *o, const struct parse_seen *seen,
		      size_t page_size, char *err, size_t errlen)
{
	if (seen->t && seen->n)
		return fl_fail(err, errlen, "-t and -n are mutually exclusive");
	if (seen->shape && o->backing == PFT_BACK_ANON)
		return fl_fail(err, errlen, "--%s needs --file PATH or --tmpfs",
			       pft_shape_name(o->shape));
	if (o->backing != PFT_BACK_ANON && !seen->shape)
		o->shape = PFT_SHAPE_PRIVATE_WRITE;
	if (o->cold && o->backing != PFT_BACK_FILE)
		return fl_fail(err, errlen, "--cold needs --file PATH (a memfd has no storage to read)");
	if (o->cold && o->strict)
		return fl_fail(err, errlen, "--cold faults follow readahead; no exact count for --strict");
	if (o->shape == PFT_SHAPE_READ && o->bzero)
		return fl_fail(err, errlen, "--read reads the pages; it cannot -z");
	if (o->latency && o->bzero)
		return fl_fail(err, errlen, "--latency times each page's touch; it cannot time -z");
	if (o->bzero && o->clines != 1)
		return fl_fail(err, errlen, "-c and -z are mutually exclusive");
	if ((o->bytes + page_size - 1) / page_size < o->workers)	/* bytes <= 2^52 */
		return fl_fail(err, errlen, "-m %llu bytes is less than one page per worker (%u)",
			       o->bytes, o->workers);
	return 0;
}

int pft_parse_args(int argc, char **argv, struct pft_opts *o,
		   size_t page_size, size_t line_size, char *err, size_t errlen)
{
	struct parse_seen seen = { false, false, false };
	int c;

	set_defaults(o);
	err[0] = '\0';
	if (argc >= 2 && !strcmp(argv[1], "--series"))
		return parse_series(argc, argv, o, err, errlen);

	optind = 0;	/* GNU: full re-initialisation (the tests parse many times) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:t:n:c:zas:TMvh", long_opts, NULL)) != -1)
		if (parse_opt(c, optarg, argv, o, &seen, page_size, line_size, err, errlen))
			return -1;
	if (optind < argc)
		return fl_fail(err, errlen, "unexpected argument '%s'", argv[optind]);
	return check_opts(o, &seen, page_size, err, errlen);
}
