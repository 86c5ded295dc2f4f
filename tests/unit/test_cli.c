// SPDX-License-Identifier: GPL-2.0
/*
 * The subcommands' option parsers (parse_X_args, user/cmd/commands.h): what
 * they accept, the one-line reasons they refuse with (the same texts the
 * commands printed before the parsers were split out), and that a parser
 * starts from a clean getopt state even when the previous call stopped in
 * the middle of an option cluster.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <getopt.h>
#include <string.h>

#include "commands.h"
#include "export.h"
#include "snapshot.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

static char err[512];

static void test_record(void **state)
{
	struct fl_record_args a;
	char **v;

	(void)state;
	v = ARGV("record", "-o", "x.snap", "-b", "kmod", "-q", "--", "pft", "-m", "1g");
	assert_int_equal(parse_record_args(10, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_string_equal(a.out, "x.snap");
	assert_int_equal(a.backend_req, FL_REC_B_KMOD);
	assert_true(a.quiet);
	assert_ptr_equal(a.cmd, v + 7);		/* "+": pft's own -m stays pft's */
	assert_string_equal(err, "");

	v = ARGV("record", "-b", "ebpf", "-a");
	assert_int_equal(parse_record_args(4, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "unknown backend 'ebpf' (auto, bpf, kmod)");
	v = ARGV("record", "-p", "+5");
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "invalid PID '+5'");
	v = ARGV("record", "-a", "-i", "nan");
	assert_int_equal(parse_record_args(4, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "invalid interval 'nan' (seconds > 0)");
	v = ARGV("record", "-a", "-p", "1");
	assert_int_equal(parse_record_args(4, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "-a and -p are exclusive");
	v = ARGV("record", "-o", "", "-a");	/* record used to read out[-1] */
	assert_int_equal(parse_record_args(4, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "empty output path (-o)");
	v = ARGV("record", "--hmf", "--tier", "tracepoint", "-a");
	assert_int_equal(parse_record_args(5, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--hmf needs a handle_mm_fault hook: not with --tier tracepoint");
	v = ARGV("record", "--hmf", "--mmap-lock", "-a");
	assert_int_equal(parse_record_args(4, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_true(a.time_hmf);
	assert_true(a.mmap_lock);
	/* the name it has now; --hmf above is its first spelling, kept */
	v = ARGV("record", "--handle-mm-fault", "-a");
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_true(a.time_hmf);
	v = ARGV("record", "--handle-mm-fault", "--tier", "tracepoint", "-a");
	assert_int_equal(parse_record_args(5, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--handle-mm-fault needs a handle_mm_fault hook: "
			    "not with --tier tracepoint");
	v = ARGV("record", "-q");
	assert_int_equal(parse_record_args(2, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "nothing to trace: give -- CMD, -p PID or -a");
	v = ARGV("record", "-a", "-b", "kmod", "-i", "1");
	assert_int_equal(parse_record_args(6, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "-i needs the bpf backend (the module has no interval reset)");
	v = ARGV("record", "--self-cost", "-b", "kmod", "-a");
	assert_int_equal(parse_record_args(5, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--self-cost times BPF programs: not with -b kmod");
	v = ARGV("record", "--self-cost", "-a");
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_true(a.self_cost);
	/* getopt's refusals in the parser's own words (fl_args_getopt_bad), not getopt's */
	v = ARGV("record", "--bogus");
	assert_int_equal(parse_record_args(2, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "unknown option '--bogus'");
	v = ARGV("record", "--bogus=1", "-a");
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "unknown option '--bogus'");
	v = ARGV("record", "-a", "-o");
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "option '-o' needs a value");
	v = ARGV("record", "-a", "--output");
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "option '--output' needs a value");
	v = ARGV("record", "--quiet=1", "-a");
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "option '--quiet' takes no value");
	v = ARGV("record", "--phases", "-aPq");	/* an earlier long option is not the culprit */
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "unknown option '-P'");
	v = ARGV("record", "--p", "1");
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "ambiguous option '--p'");
	v = ARGV("record", "-h", "-a");
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_HELP);
}

/*
 * After "-Zq" stopped at Z, glibc still points at the 'q' of the old argv
 * when optind is merely set back to 1 (as record and report did): the next
 * parse would see -q and miss -a.  optind = 0 reinitialises getopt.
 */
static void test_getopt_reset(void **state)
{
	struct fl_record_args a;
	char **v;

	(void)state;
	v = ARGV("record", "-Zq", "-a");
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	v = ARGV("record", "-ab", "bpf");
	assert_int_equal(parse_record_args(3, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_true(a.system_wide);
	assert_false(a.quiet);
	assert_int_equal(a.backend_req, FL_REC_B_BPF);
}

static void test_report(void **state)
{
	struct fl_report_args a;
	char **v;

	(void)state;
	v = ARGV("report", "--per-cpu", "a.snap", "--hist");
	assert_int_equal(parse_report_args(4, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_string_equal(a.path, "a.snap");
	assert_true(a.per_cpu && a.hist);
	v = ARGV("report", "--by", "socket", "a.snap");
	assert_int_equal(parse_report_args(4, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--by wants cpu, llc or node, got 'socket'");
	v = ARGV("report", "a.snap", "b.snap");
	assert_int_equal(parse_report_args(3, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "unexpected argument 'b.snap'");
	v = ARGV("report", "--raw");
	assert_int_equal(parse_report_args(2, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "missing FILE|DIR");
	v = ARGV("report", "--by", "llc", "a.snap");
	assert_int_equal(parse_report_args(4, v, &a, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--by applies to --phases/--locks");
}

static void test_export_compare_plot(void **state)
{
	struct fl_export_args e;
	struct fl_compare_args c;
	struct fl_plot_args p;
	char **v;

	(void)state;
	v = ARGV("export", "-f", "prom", "-b", "total", "d");
	assert_int_equal(parse_export_args(6, v, &e, err, sizeof(err)), FL_ARGS_RUN);
	assert_int_equal(e.fmt, FL_EXP_FMT_PROM);
	assert_int_equal(e.by, FL_EXP_BY_TOTAL);
	assert_string_equal(e.in, "d");
	v = ARGV("export", "-f", "bogus", "d");
	assert_int_equal(parse_export_args(4, v, &e, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "unknown format 'bogus' (json, csv, prom, text)");

	v = ARGV("compare", "--alpha", "0.01", "-f", "md", "A", "B");
	assert_int_equal(parse_compare_args(7, v, &c, err, sizeof(err)), FL_ARGS_RUN);
	assert_true(c.alpha == 0.01);
	assert_int_equal(c.fmt, FL_CMP_FMT_MD);
	assert_string_equal(c.b, "B");
	v = ARGV("compare", "--alpha", "1", "A", "B");
	assert_int_equal(parse_compare_args(5, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--alpha wants a number in (0, 1), got '1'");
	v = ARGV("compare", "--seed", "-f", "csv", "A", "B");
	assert_int_equal(parse_compare_args(6, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--seed applies to --format text only");
	/* -a/-b: the words up to the next option are the side's */
	v = ARGV("compare", "-a", "a1.snap", "a2.snap", "--precision", "3", "-b", "b1.snap",
		 "-f", "md");
	assert_int_equal(parse_compare_args(10, v, &c, err, sizeof(err)), FL_ARGS_RUN);
	assert_int_equal(c.nlist[0], 2);
	assert_int_equal(c.nlist[1], 1);
	assert_string_equal(c.list[0][1], "a2.snap");
	assert_string_equal(c.list[1][0], "b1.snap");
	assert_int_equal(c.precision, 3);
	assert_int_equal(c.fmt, FL_CMP_FMT_MD);
	assert_null(c.a);
	v = ARGV("compare", "-a", "a1.snap", "B");
	assert_int_equal(parse_compare_args(4, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "-a without -b");
	v = ARGV("compare", "-a", "-b", "b1.snap");
	assert_int_equal(parse_compare_args(4, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "-a wants at least one snapshot or directory");
	v = ARGV("compare", "-a", "x", "-b", "y", "z", "-b", "w");
	assert_int_equal(parse_compare_args(8, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "-b given twice (list its recordings after one -b)");
	v = ARGV("compare", "-a", "x", "-b", "y", "--", "z");
	assert_int_equal(parse_compare_args(7, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "unexpected argument 'z' (with -a/-b, every recording follows "
			    "one of them)");
	v = ARGV("compare", "--precision", "0", "A", "B");
	assert_int_equal(parse_compare_args(5, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--precision wants significant digits, 1 to 17, got '0'");
	v = ARGV("compare", "--precision", "4", "--seed", "A", "B");
	assert_int_equal(parse_compare_args(6, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--seed prints every digit, as the seed; --precision is for "
			    "the other layouts");
	v = ARGV("compare", "--precision", "4", "-f", "json", "A", "B");
	assert_int_equal(parse_compare_args(7, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--precision applies to text and markdown (json and csv carry "
			    "every digit)");
	/* --hist: two recordings' buckets in text, markdown, csv; json has them anyway */
	v = ARGV("compare", "--hist", "-f", "csv", "A", "B");
	assert_int_equal(parse_compare_args(6, v, &c, err, sizeof(err)), FL_ARGS_RUN);
	assert_int_equal(c.hist, 1);
	v = ARGV("compare", "-a", "a1.snap", "--hist", "-b", "b1.snap");
	assert_int_equal(parse_compare_args(6, v, &c, err, sizeof(err)), FL_ARGS_RUN);
	assert_true(c.hist && c.nlist[0] == 1 && c.nlist[1] == 1);
	v = ARGV("compare", "A", "B");
	assert_int_equal(parse_compare_args(3, v, &c, err, sizeof(err)), FL_ARGS_RUN);
	assert_int_equal(c.hist, 0);
	v = ARGV("compare", "--hist", "-f", "json", "A", "B");
	assert_int_equal(parse_compare_args(6, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--hist applies to text, markdown and csv (json always has the "
			    "buckets)");
	v = ARGV("compare", "--hist", "--seed", "A", "B");
	assert_int_equal(parse_compare_args(5, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--hist prints two recordings' histograms; --seed is the layout "
			    "of two sweeps");

	v = ARGV("plot", "--threads", "8", "-f", "svg", "S");
	assert_int_equal(parse_plot_args(6, v, &p, err, sizeof(err)), FL_ARGS_RUN);
	assert_int_equal(p.heat_threads, 8);
	assert_true(p.svg && !p.png);
	assert_null(p.b);
	assert_string_equal(p.outdir, "plots");
	v = ARGV("plot", "--threads", "-1", "S");
	assert_int_equal(parse_plot_args(4, v, &p, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "--threads wants a positive number");
}

static void test_tags_probe_check(void **state)
{
	struct fl_tags_args t;
	struct fl_check_args c;
	char **v;

	(void)state;
	v = ARGV("tags", "--root", "/r", "--topology");
	assert_int_equal(parse_tags_args(4, v, &t, err, sizeof(err)), FL_ARGS_RUN);
	assert_string_equal(t.root, "/r");
	assert_true(t.topology);
	v = ARGV("tags", "x");
	assert_int_equal(parse_tags_args(2, v, &t, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "unexpected argument 'x'");

	v = ARGV("probe");
	assert_int_equal(parse_probe_args(1, v, err, sizeof(err)), FL_ARGS_RUN);
	v = ARGV("probe", "--help");
	assert_int_equal(parse_probe_args(2, v, err, sizeof(err)), FL_ARGS_HELP);
	v = ARGV("probe", "-x");
	assert_int_equal(parse_probe_args(2, v, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "unknown option '-x'");
	v = ARGV("probe", "x");
	assert_int_equal(parse_probe_args(2, v, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "unexpected argument 'x'");

	v = ARGV("check", "-q", "a", "b");
	assert_int_equal(parse_check_args(4, v, &c, err, sizeof(err)), FL_ARGS_RUN);
	assert_true(c.quiet);
	assert_ptr_equal(c.files, v + 2);
	v = ARGV("check", "-q");
	assert_int_equal(parse_check_args(2, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "no snapshot file given");
	v = ARGV("check", "--bogus", "a");
	assert_int_equal(parse_check_args(3, v, &c, err, sizeof(err)), FL_ARGS_BAD);
	assert_string_equal(err, "unknown option '--bogus'");
}

/* take_snapshot() used to drop a refused tag and write the snapshot without it. */
static void test_record_tags(void **state)
{
	struct fl_snapshot s;
	char err[256];

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_record_tag_window(&s, "pft -m 1g", NULL, 7, err, sizeof(err)), 0);
	assert_string_equal(fl_snapshot_tag(&s, "command"), "pft -m 1g");
	assert_string_equal(fl_snapshot_tag(&s, "interval_index"), "7");
	assert_null(fl_snapshot_tag(&s, "locks.caveat"));
	fl_snapshot_free(&s);

	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_record_tag_window(&s, "", NULL, -1, err, sizeof(err)), 0);
	assert_null(fl_snapshot_tag(&s, "command"));
	assert_null(fl_snapshot_tag(&s, "interval_index"));
	fl_snapshot_free(&s);

	/* a value the format cannot hold fails the window, naming the tag */
	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_record_tag_window(&s, "sh -c 'a\nb'", NULL, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'command' refused"));
	fl_snapshot_free(&s);
	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_record_tag_window(&s, "x", "spin\nwaits", 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'locks.caveat' refused"));
	fl_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_record_tags),
		cmocka_unit_test(test_getopt_reset),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_export_compare_plot),
		cmocka_unit_test(test_tags_probe_check),
	};

	opterr = 0;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
