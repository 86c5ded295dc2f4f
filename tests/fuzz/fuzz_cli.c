// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the option parsers of every faultline subcommand (parse_X_args(),
 * user/cmd/commands.h; pft's own is fuzz_pft_options).  Input: byte 0 picks the
 * command, the rest is argv[1..] split on NUL.  A parser must answer
 * run / help / bad; a refusal's reason is one line (unless it quotes an
 * argument holding a newline) without the "faultline CMD:" prefix the
 * command adds; what it accepts is within the documented limits; parsing a
 * fresh copy again (getopt permutes argv) gives the same answer.
 */
#include <getopt.h>
#include <math.h>

#include "fuzzutil.h"
#include "commands.h"
#include "export.h"
#include "serve.h"

#define MAX_ARGS 64

static const char *const names[] = {
	"record", "report", "probe", "export", "compare", "plot", "tags", "check", "serve",
};
#define NCMD (sizeof(names) / sizeof(names[0]))

union args {
	struct fl_record_args rec;
	struct fl_report_args rep;
	struct fl_export_args exp;
	struct fl_compare_args cmp;
	struct fl_plot_args plot;
	struct fl_tags_args tags;
	struct fl_check_args check;
	struct fl_serve_args serve;
};

static int parse(unsigned int cmd, int argc, char **argv, union args *a, char *err, size_t len)
{
	switch (cmd) {
	case 0: return parse_record_args(argc, argv, &a->rec, err, len);
	case 1: return parse_report_args(argc, argv, &a->rep, err, len);
	case 2: return parse_probe_args(argc, argv, err, len);
	case 3: return parse_export_args(argc, argv, &a->exp, err, len);
	case 4: return parse_compare_args(argc, argv, &a->cmp, err, len);
	case 5: return parse_plot_args(argc, argv, &a->plot, err, len);
	case 6: return parse_tags_args(argc, argv, &a->tags, err, len);
	case 7: return parse_check_args(argc, argv, &a->check, err, len);
	default: return parse_serve_args(argc, argv, &a->serve, err, len);
	}
}

/* Does S point into one of the argv strings ("-oFILE", "--run=X" too)? */
static int in_argv(char **argv, int argc, const char *s)
{
	for (int i = 0; i < argc; i++)
		if (s >= argv[i] && s <= argv[i] + strlen(argv[i]))
			return 1;
	return 0;
}

static void check_accepted(unsigned int cmd, int argc, char **argv, const union args *a)
{
	switch (cmd) {
	case 0: {
		const struct fl_record_args *r = &a->rec;

		FZ_ASSERT(r->backend_req >= FL_REC_B_AUTO && r->backend_req <= FL_REC_B_KMOD);
		FZ_ASSERT(r->tier_req <= FL_TIER_TRACEPOINT);
		FZ_ASSERT(r->system_wide + !!r->pid + !!r->cmd >= 1);
		FZ_ASSERT(!(r->system_wide && r->pid) && !(r->pid && r->cmd));
		FZ_ASSERT(r->pid <= 0x7fffffff);
		FZ_ASSERT(r->interval == 0 || (isfinite(r->interval) && r->interval > 0 &&
					       r->interval <= 1e7));
		FZ_ASSERT(r->duration == 0 || (isfinite(r->duration) && r->duration > 0 &&
					       r->duration <= 1e7));
		FZ_ASSERT(!(r->interval > 0 && r->backend_req == FL_REC_B_KMOD));
		FZ_ASSERT(!r->out || in_argv(argv, argc, r->out));
		if (r->cmd) {
			FZ_ASSERT(r->cmd > argv && r->cmd < argv + argc);
			FZ_ASSERT(argv[argc] == NULL);	/* the command is NULL-terminated */
		}
		break;
	}
	case 1:
		FZ_ASSERT(a->rep.path && in_argv(argv, argc, a->rep.path));
		FZ_ASSERT(a->rep.by == FL_BY_CPU || a->rep.phases || a->rep.locks);
		FZ_ASSERT(a->rep.by >= FL_BY_CPU && a->rep.by <= FL_BY_NODE);
		break;
	case 2:
		FZ_ASSERT(argc == 1);
		break;
	case 3:
		FZ_ASSERT(a->exp.in && in_argv(argv, argc, a->exp.in));
		FZ_ASSERT(a->exp.fmt >= FL_EXP_FMT_JSON && a->exp.fmt <= FL_EXP_FMT_TEXT);
		FZ_ASSERT(a->exp.by >= FL_EXP_BY_CPU && a->exp.by <= FL_EXP_BY_TOTAL);
		break;
	case 4:
		/* two positional sides, or -a/-b lists of words taken from argv */
		if (a->cmp.nlist[0] || a->cmp.nlist[1]) {
			FZ_ASSERT(a->cmp.nlist[0] && a->cmp.nlist[1] && !a->cmp.a && !a->cmp.b);
			for (int s = 0; s < 2; s++) {
				FZ_ASSERT(a->cmp.nlist[s] <= FL_CMP_MAX_LIST);
				for (unsigned int k = 0; k < a->cmp.nlist[s]; k++)
					FZ_ASSERT(in_argv(argv, argc, a->cmp.list[s][k]) &&
						  a->cmp.list[s][k][0] != '-');
			}
		} else {
			FZ_ASSERT(a->cmp.a && a->cmp.b && in_argv(argv, argc, a->cmp.b));
		}
		FZ_ASSERT(a->cmp.precision >= 0 && a->cmp.precision <= 17);
		FZ_ASSERT(!a->cmp.precision || (!a->cmp.seed && (a->cmp.fmt == FL_CMP_FMT_TEXT ||
								  a->cmp.fmt == FL_CMP_FMT_MD)));
		FZ_ASSERT(a->cmp.alpha > 0 && a->cmp.alpha < 1);
		FZ_ASSERT(!a->cmp.seed || a->cmp.fmt == FL_CMP_FMT_TEXT);
		FZ_ASSERT(!a->cmp.hist || (!a->cmp.seed && a->cmp.fmt != FL_CMP_FMT_JSON));
		FZ_ASSERT(a->cmp.fmt >= FL_CMP_FMT_TEXT && a->cmp.fmt <= FL_CMP_FMT_MD);
		break;
	case 5:
		FZ_ASSERT(a->plot.a && in_argv(argv, argc, a->plot.a));
		FZ_ASSERT(a->plot.png || a->plot.svg);
		FZ_ASSERT(a->plot.heat_threads <= 1u << 20);
		FZ_ASSERT(a->plot.outdir);
		break;
	case 6:
		FZ_ASSERT(a->tags.root);
		break;
	case 7:
		FZ_ASSERT(a->check.files && a->check.files[0]);
		FZ_ASSERT(a->check.files > argv && a->check.files < argv + argc);
		break;
	default: {
		const struct fl_serve_args *v = &a->serve;

		FZ_ASSERT(v->listen && v->run);
		FZ_ASSERT(v->backend_req >= FL_REC_B_AUTO && v->backend_req <= FL_REC_B_KMOD);
		FZ_ASSERT(v->tier_req <= FL_TIER_TRACEPOINT);
		FZ_ASSERT(!(v->tier_req && v->backend_req == FL_REC_B_KMOD));
		FZ_ASSERT(v->by >= FL_EXP_BY_CPU && v->by <= FL_EXP_BY_TOTAL);
		FZ_ASSERT(!v->per_cpu || v->by == FL_EXP_BY_CPU);
		FZ_ASSERT(v->pid <= 0x7fffffff);
		FZ_ASSERT(isfinite(v->interval) && v->interval >= 0.01 && v->interval <= 1e7);
		FZ_ASSERT(v->duration == 0 || (isfinite(v->duration) && v->duration >= 0.01));
		FZ_ASSERT(!v->textfile || in_argv(argv, argc, v->textfile));
		FZ_ASSERT(!v->cgroup || (!v->pid && v->backend_req != FL_REC_B_KMOD));
		break;
	}
	}
}

static char **copy_argv(unsigned int cmd, char **field, unsigned int n)
{
	char **argv = calloc(n + 2, sizeof(*argv));

	if (!argv)
		abort();
	argv[0] = strdup(names[cmd]);
	for (unsigned int i = 0; i < n; i++)
		argv[i + 1] = strdup(field[i]);
	return argv;
}

static void free_argv(char **argv, unsigned int n)
{
	for (unsigned int i = 0; i <= n; i++)
		free(argv[i]);
	free(argv);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *field[MAX_ARGS], err[512], err2[512], **argv, **argv2;
	union args a, a2;
	unsigned int n, cmd;
	int r, r2, nl = 0;

	if (size < 1)
		return 0;
	cmd = data[0] % NCMD;
	n = size > 1 ? fz_split(data + 1, size - 1, '\0', field, MAX_ARGS) : 0;
	for (unsigned int i = 0; i < n; i++)
		nl |= !!strchr(field[i], '\n');
	opterr = 0;		/* getopt's own complaints would flood the log */

	argv = copy_argv(cmd, field, n);
	memset(err, 'x', sizeof(err));
	r = parse(cmd, (int)n + 1, argv, &a, err, sizeof(err));
	FZ_ASSERT(r == FL_ARGS_RUN || r == FL_ARGS_HELP || r == FL_ARGS_BAD);
	FZ_ASSERT(memchr(err, '\0', sizeof(err)));	/* always a string */
	if (r == FL_ARGS_BAD && err[0]) {
		FZ_ASSERT(nl || !strchr(err, '\n'));
		FZ_ASSERT(strncmp(err, "faultline", 9));
	}
	if (r != FL_ARGS_BAD)
		FZ_ASSERT(!err[0]);
	if (r == FL_ARGS_RUN)
		check_accepted(cmd, (int)n + 1, argv, &a);

	argv2 = copy_argv(cmd, field, n);
	r2 = parse(cmd, (int)n + 1, argv2, &a2, err2, sizeof(err2));
	FZ_ASSERT(r2 == r);
	FZ_ASSERT(!strcmp(err, err2));
	free_argv(argv, n);
	free_argv(argv2, n);
	fz_free_fields(field, n);
	return 0;
}
