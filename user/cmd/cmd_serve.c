// SPDX-License-Identifier: GPL-2.0
/*
 * faultline serve: a long-running collector.  The backend is chosen as
 * `record` chooses it (bpf fentry, else faultline.ko if loaded, else bpf
 * kprobe, else bpf tracepoint; -b / --tier to insist) and read every
 * interval into a cumulative model (user/serve_metrics.c), which the HTTP
 * thread serves at /metrics (user/serve_http.c) and --textfile writes for
 * node_exporter.  SIGTERM / SIGINT: detach everything, exit 0.  SIGHUP:
 * detach and attach the backend again (counts carry on).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "backend.h"
#include "commands.h"
#include "errbuf.h"
#include "export.h"
#include "export_out.h"
#include "serve.h"
#include "serve_http.h"
#include "snapshot.h"
#include "tags.h"
#include "vmstat.h"


struct srv {
	struct fl_serve_args a;
	struct fl_be be;	/* the backend in use (user/backend.c, as record's) */
	unsigned int tgid;
	int stats_fd;
	struct fl_vmstat vm;
	bool vm_ok;
	struct fl_serve_model m;
	bool model_ok;
	pthread_mutex_t mu;
	struct fl_http *http;
	char where[128];	/* the address the HTTP side really listens on */
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: faultline serve [--listen ADDR:PORT] [-a | -p PID | --cgroup PATH]\n"
"                       [--per-cpu | --by llc|node] [--prom-buckets coarse|full]\n"
"                       [-b auto|bpf|kmod] [--tier fentry|kprobe|tracepoint] [-i SEC]\n"
"                       [--textfile DIR] [--run NAME] [--self-cost] [--handle-mm-fault]\n"
"                       [--mmap-lock] [-o FILE] [-d SEC] [-q]\n"
"  -l, --listen ADDR:PORT serve /metrics there (default " FL_SERVE_DEFAULT_LISTEN
"; [V6]:PORT for IPv6;\n"
"                         ADDR may be a name, e.g. localhost; port 0: any free port)\n"
"  -a, --all              trace every task (the default)\n"
"  -p, --pid PID          trace this process (its thread group and children)\n"
"      --cgroup PATH      trace the processes in cgroup PATH (v1 or v2 directory) and\n"
"                         their children; rescanned every interval (bpf backend)\n"
"      --per-cpu          one series per CPU (a cpu label); default: machine totals\n"
"      --by llc|node      one series per LLC domain or NUMA node\n"
"      --prom-buckets coarse|full  le bounds: coarse (default), every half power\n"
"                         of two 32 ns..17 s; full: the histogram's 272\n"
"  -b, --backend B        as record: auto (default), bpf or kmod\n"
"      --tier T           use only this bpf tier\n"
"  -i, --interval SEC     read the backend every SEC seconds (default 1)\n"
"      --textfile DIR     also write DIR/faultline.prom every interval (atomic rename),\n"
"                         for node_exporter's textfile collector\n"
"      --run NAME         the run label (default 'serve')\n"
"  -o, --output FILE      at exit, write what /metrics served (all counts since start)\n"
"                         as a snapshot for report / export / compare (atomic rename)\n"
"      --self-cost        also export the BPF programs' own runs and run time\n"
"      --handle-mm-fault, --mmap-lock  as record\n"
"  -d, --duration SEC     exit (status 0) after SEC seconds\n"
"  -q, --quiet            no notes on stderr\n"
"SIGTERM/SIGINT: detach and exit 0; SIGHUP: detach and attach the backend again.\n");
}

static void serve_defaults(struct fl_serve_args *a)
{
	memset(a, 0, sizeof(*a));
	a->listen = FL_SERVE_DEFAULT_LISTEN;
	a->by = FL_EXP_BY_TOTAL;
	a->interval = 1;
	a->run = "serve";
}

enum { O_PERCPU = 256, O_BY, O_TIER, O_TEXTFILE, O_RUN, O_SELF, O_HMF, O_HMF_OLD, O_MMAP, O_CGROUP,
       O_PROM_BUCKETS };

/* what the cross-option checks need beyond the arguments themselves */
struct serve_seen {
	bool all;
	bool by_set;
};

static int parse_pid(const char *arg, struct fl_serve_args *a, char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || errno || *end || !v || v > 0x7fffffff)
		return fl_args_bad(err, errlen, "-p: expected a process id, got '%s'", arg);
	a->pid = v;
	return FL_ARGS_RUN;
}

static int parse_by(const char *arg, struct fl_serve_args *a, char *err, size_t errlen)
{
	enum fl_export_by by;

	if (fl_export_by_parse(arg, &by))
		return fl_args_bad(err, errlen, "--by: expected llc, node, cpu or total, got '%s'",
				   arg);
	a->by = by;
	return FL_ARGS_RUN;
}

/* The options that take a value to check: FL_ARGS_RUN, or FL_ARGS_BAD. */
static int parse_valued(int c, const char *arg, struct fl_serve_args *a,
			struct serve_seen *seen, char *err, size_t errlen)
{
	switch (c) {
	case 'p':
		return parse_pid(arg, a, err, errlen);
	case O_CGROUP:
		if (!arg[0])
			return fl_args_bad(err, errlen, "--cgroup: empty path");
		a->cgroup = arg;
		return FL_ARGS_RUN;
	case O_BY:
		seen->by_set = true;
		return parse_by(arg, a, err, errlen);
	case 'b':
		if (fl_parse_backend(arg, &a->backend_req))
			return fl_args_bad(err, errlen, "-b: expected auto, bpf or kmod, got '%s'", arg);
		return FL_ARGS_RUN;
	case O_TIER:
		if (fl_parse_tier(arg, &a->tier_req))
			return fl_args_bad(err, errlen, "--tier: expected fentry, kprobe or "
					   "tracepoint, got '%s'", arg);
		return FL_ARGS_RUN;
	case O_PROM_BUCKETS:
		if (fl_prom_buckets_parse(arg, &a->prom_buckets))
			return fl_args_bad(err, errlen, "--prom-buckets: expected coarse or full, "
					   "got '%s'", arg);
		return FL_ARGS_RUN;
	case 'i':
		if (fl_parse_secs(arg, 0.01, &a->interval))
			return fl_args_bad(err, errlen, "-i: expected seconds >= 0.01, got '%s'", arg);
		return FL_ARGS_RUN;
	default:	/* 'd' */
		if (fl_parse_secs(arg, 0.01, &a->duration))
			return fl_args_bad(err, errlen, "-d: expected seconds >= 0.01, got '%s'", arg);
		return FL_ARGS_RUN;
	}
}

/* One option: FL_ARGS_RUN to go on, FL_ARGS_HELP or FL_ARGS_BAD; -1: not an option of ours. */
static int parse_opt(int c, char *arg, struct fl_serve_args *a,
		     struct serve_seen *seen, char *err, size_t errlen)
{
	switch (c) {
	case 'p': case O_CGROUP: case O_BY: case 'b': case O_TIER: case 'i': case 'd':
	case O_PROM_BUCKETS:
		return parse_valued(c, arg, a, seen, err, errlen);
	case 'l':
		a->listen = arg;
		break;
	case 'a':
		seen->all = true;
		break;
	case O_PERCPU:
		a->per_cpu = true;
		break;
	case O_TEXTFILE:
		a->textfile = arg;
		break;
	case O_RUN:
		a->run = arg;
		break;
	case 'o':
		if (!arg[0])
			return fl_args_bad(err, errlen, "-o: empty file name");
		a->output = arg;
		break;
	case O_SELF:
		a->self_cost = true;
		break;
	case O_HMF:
	case O_HMF_OLD:
		a->time_hmf = true;
		a->hmf_opt = c == O_HMF ? "--handle-mm-fault" : "--hmf";
		break;
	case O_MMAP:
		a->mmap_lock = true;
		break;
	case 'q':
		a->quiet = true;
		break;
	case 'h':
		return FL_ARGS_HELP;
	default:
		return -1;
	}
	return FL_ARGS_RUN;
}

/* The options against each other, once all are read. */
static int check_args(struct fl_serve_args *a, const struct serve_seen *seen,
		      char *err, size_t errlen)
{
	if (seen->all && a->pid)
		return fl_args_bad(err, errlen, "-a and -p exclude each other");
	if (a->cgroup && (seen->all || a->pid))
		return fl_args_bad(err, errlen, "--cgroup excludes -a and -p");
	if (a->cgroup && a->backend_req == FL_REC_B_KMOD)
		return fl_args_bad(err, errlen, "--cgroup needs the bpf backend (the module "
				   "filters one thread group)");
	if (a->per_cpu && seen->by_set && a->by != FL_EXP_BY_CPU)
		return fl_args_bad(err, errlen, "--per-cpu and --by exclude each other");
	if (a->per_cpu)
		a->by = FL_EXP_BY_CPU;
	if (a->backend_req == FL_REC_B_KMOD && a->tier_req)
		return fl_args_bad(err, errlen, "--tier is for the bpf backend");
	if (a->time_hmf && a->tier_req == FL_TIER_TRACEPOINT)
		return fl_args_bad(err, errlen, "%s needs a handle_mm_fault hook: not with "
				   "--tier tracepoint", a->hmf_opt);
	if (a->backend_req == FL_REC_B_KMOD && a->self_cost)
		return fl_args_bad(err, errlen, "--self-cost times BPF programs: not with -b kmod");
	return FL_ARGS_RUN;
}

int parse_serve_args(int argc, char **argv, struct fl_serve_args *a, char *err, size_t errlen)
{
	static const struct option lo[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "all", no_argument, NULL, 'a' },
		{ "pid", required_argument, NULL, 'p' },
		{ "cgroup", required_argument, NULL, O_CGROUP },
		{ "per-cpu", no_argument, NULL, O_PERCPU },
		{ "by", required_argument, NULL, O_BY },
		{ "prom-buckets", required_argument, NULL, O_PROM_BUCKETS },
		{ "backend", required_argument, NULL, 'b' },
		{ "tier", required_argument, NULL, O_TIER },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "textfile", required_argument, NULL, O_TEXTFILE },
		{ "run", required_argument, NULL, O_RUN },
		{ "self-cost", no_argument, NULL, O_SELF },
		{ "handle-mm-fault", no_argument, NULL, O_HMF },
		{ "hmf", no_argument, NULL, O_HMF_OLD },	/* its first spelling */
		{ "mmap-lock", no_argument, NULL, O_MMAP },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct serve_seen seen = { 0 };
	int c, ret;

	serve_defaults(a);
	err[0] = '\0';
	fl_getopt_start();
	while ((c = getopt_long(argc, argv, "+:l:ap:b:i:d:o:qh", lo, NULL)) != -1) {
		ret = parse_opt(c, optarg, a, &seen, err, errlen);
		if (ret < 0)
			return fl_args_getopt_bad(c, argv, lo, err, errlen);
		if (ret != FL_ARGS_RUN)
			return ret;
	}
	if (optind < argc)
		return fl_args_bad(err, errlen, "unexpected argument '%s'", argv[optind]);
	return check_args(a, &seen, err, errlen);
}

static unsigned long long now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* root, or CAP_BPF + CAP_PERFMON, or CAP_SYS_ADMIN in the effective set */
static bool privileged(void)
{
	char line[256];
	unsigned long long eff = 0;
	FILE *f;

	if (geteuid() == 0)
		return true;
	f = fopen("/proc/self/status", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff & (1ULL << 21)) || ((eff & (1ULL << 38)) && (eff & (1ULL << 39)));
}

static void note(const struct srv *s, const char *text)
{
	if (!s->a.quiet)
		fl_say_lines("serve", text);
}

/* record's choice and lines (user/backend.c); --cgroup never takes the module */
static int start_backend(struct srv *s)
{
	struct fl_be_req req = {
		.cmd = "serve",
		.backend_req = s->a.backend_req,
		.tier_req = s->a.tier_req,
		.quiet = s->a.quiet,
		.no_kmod = s->a.cgroup != NULL,
		.bpf = {
			.system_wide = s->tgid == 0 && !s->a.cgroup,
			.tgid = s->tgid,
			.follow_fork = true,
			.time_hmf = s->a.time_hmf,
			.mmap_lock = s->a.mmap_lock,
		},
	};

	return fl_be_start(&s->be, &req);
}

/*
 * --cgroup: add every process listed in PATH/cgroup.procs to the traced set
 * (a bit each; their children follow by fork).  Processes that join later
 * are traced from the next scan; ones that leave stay traced.  0 or -1.
 */
static int cgroup_scan(struct srv *s)
{
	char path[4096];
	unsigned int pid;
	FILE *f;

	if (!s->a.cgroup || s->be.id != FL_BACKEND_BPF)
		return 0;
	snprintf(path, sizeof(path), "%s/cgroup.procs", s->a.cgroup);
	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "faultline serve: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fscanf(f, "%u", &pid) == 1)
		fl_tgid_filter_add(&s->be.tgids, pid);
	fclose(f);
	return 0;
}

/* One backend read folded into the model and rendered. */
static int collect(struct srv *s)
{
	struct fl_snapshot snap = { 0 };
	char err[512];
	int ret;

	cgroup_scan(s);
	if (s->vm_ok && fl_vmstat_read(&s->vm, NULL, true, err, sizeof(err)))
		s->vm_ok = false;
	ret = fl_be_read(&s->be, &snap, true, err, sizeof(err));
	if (!ret && s->stats_fd >= 0 && s->be.bpf && fl_bpf_tag_own_runs(s->be.bpf, &snap)) {
		fl_fail(err, sizeof(err), "reading the programs' run statistics");
		ret = -1;
	}
	if (!ret && s->vm_ok && fl_vmstat_to_snapshot(&s->vm, &snap.vmstat, &snap.nr_vmstat)) {
		fl_fail(err, sizeof(err), "out of memory");
		ret = -1;
	}
	pthread_mutex_lock(&s->mu);
	if (!ret && !s->model_ok) {
		if (fl_serve_model_init(&s->m, snap.hdr.nr_cpus)) {
			fl_fail(err, sizeof(err), "out of memory");
			ret = -1;
		} else {
			s->model_ok = true;
			s->m.by = s->a.by;
			s->m.prom_buckets = s->a.prom_buckets;
			s->m.run = s->a.run;
			s->m.start_real_ns = now_ns(CLOCK_REALTIME);
			s->m.start_mono_ns = now_ns(CLOCK_MONOTONIC);
			/* machine tags once: faultline_machine_info (left out if refused) */
			if (fl_tags_collect(&s->m.machine))
				fl_snapshot_free(&s->m.machine);
		}
	}
	if (!ret) {
		s->m.now_mono_ns = now_ns(CLOCK_MONOTONIC);
		ret = fl_serve_model_add(&s->m, &snap, fl_be_can_rotate(&s->be), err, sizeof(err));
	}
	if (!ret)
		ret = fl_serve_render(&s->m, err, sizeof(err));
	else if (s->model_ok)
		s->m.read_errors++;
	pthread_mutex_unlock(&s->mu);
	fl_snapshot_free(&snap);
	if (ret)
		fprintf(stderr, "faultline serve: reading the statistics: %s\n", err);
	return ret;
}

static void write_textfile(struct srv *s)
{
	char path[4096];
	struct fl_out o;
	size_t n;

	snprintf(path, sizeof(path), "%s/faultline.prom", s->a.textfile);
	if (fl_out_open(&o, path))
		return;
	fchmod(fileno(o.f), 0644);	/* node_exporter reads it as another user */
	pthread_mutex_lock(&s->mu);
	n = fwrite(s->m.buf, 1, s->m.len, o.f);
	pthread_mutex_unlock(&s->mu);
	if (n != s->m.len) {
		fprintf(stderr, "faultline serve: %s: short write\n", path);
		fl_out_abort(&o);
		return;
	}
	fl_out_commit(&o);
}

/* -o's directory, checked at start: a typo fails now, not after hours of serving */
static int output_ok(const char *path)
{
	char dir[4096];

	if (fl_atomic_dir_ok(path, dir, sizeof(dir))) {
		fprintf(stderr, "faultline serve: -o %s: %s: %s\n", path, dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* -o at exit: one last read, so the snapshot ends where serving ended */
static int save_output(struct srv *s)
{
	char err[512];
	int ret;

	if (!s->a.output || !s->model_ok)
		return 0;
	collect(s);
	pthread_mutex_lock(&s->mu);
	ret = fl_serve_model_save(&s->m, s->a.output, err, sizeof(err));
	pthread_mutex_unlock(&s->mu);
	if (ret)
		fprintf(stderr, "faultline serve: -o %s: %s\n", s->a.output, err);
	else
		note(s, "snapshot written");
	return ret;
}

static int textfile_ok(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || access(dir, W_OK)) {
		fprintf(stderr, "faultline serve: --textfile %s: not a writable directory\n", dir);
		return -1;
	}
	return 0;
}

/* Before anything is set up: 0, or the exit status. */
static int serve_precheck(struct srv *s)
{
	if (!privileged()) {
		fprintf(stderr, "faultline serve: needs root (or CAP_BPF + CAP_PERFMON) to attach "
			"its probes; not starting\n");
		return 1;
	}
	if (s->a.textfile && textfile_ok(s->a.textfile))
		return 1;
	if (s->a.output && output_ok(s->a.output))
		return 1;
	if (s->a.pid) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%u", s->a.pid);
		if (access(path, F_OK)) {
			fprintf(stderr, "faultline serve: -p %u: no such process\n", s->a.pid);
			return 1;
		}
		s->tgid = s->a.pid;
	}
	return 0;
}

/*
 * Listening first (a taken port fails before anything is attached; a scrape
 * before the first read gets 503), then the backend attached and read
 * once: 0 or -1.
 */
static int serve_start(struct srv *s)
{
	char err[512];

	s->http = fl_http_start(s->a.listen, &s->m, &s->mu, err, sizeof(err));
	if (!s->http) {
		fprintf(stderr, "faultline serve: %s\n", err);
		return -1;
	}
	snprintf(s->where, sizeof(s->where), "%.100s", err);	/* fl_http_start: the address bound */
	fl_bpf_setup_libbpf();
	if (s->a.self_cost) {
		s->stats_fd = fl_bpf_stats_enable(err, sizeof(err));
		if (s->stats_fd < 0) {
			fprintf(stderr, "faultline serve: --self-cost: %s\n", err);
			return -1;
		}
	}
	if (start_backend(s))
		return -1;
	/* attached disarmed: the baseline, then one window from the arming */
	s->vm_ok = !fl_vmstat_read(&s->vm, NULL, false, err, sizeof(err));
	if (!s->vm_ok)
		fprintf(stderr, "faultline serve: %s (vmstat not exported)\n", err);
	if (fl_be_arm(&s->be, err, sizeof(err))) {
		fprintf(stderr, "faultline serve: %s\n", err);
		return -1;
	}
	if (cgroup_scan(s) || collect(s))
		return -1;
	if (!s->a.quiet)
		fprintf(stderr, "faultline serve: http://%s/metrics, reading every %gs%s%s\n",
			s->where, s->a.interval, s->a.textfile ? ", textfile in " : "",
			s->a.textfile ? s->a.textfile : "");
	if (s->a.textfile)
		write_textfile(s);
	return 0;
}

/* SIGHUP: the old session's last counts folded in, the backend attached anew; 0 or -1. */
static int serve_reopen(struct srv *s)
{
	collect(s);
	fl_be_stop(&s->be);
	pthread_mutex_lock(&s->mu);
	fl_serve_model_new_session(&s->m);
	pthread_mutex_unlock(&s->mu);
	if (s->a.textfile)
		textfile_ok(s->a.textfile);
	if (start_backend(s)) {
		fprintf(stderr, "faultline serve: SIGHUP: the backend did not come back; exiting\n");
		return -1;
	}
	cgroup_scan(s);
	note(s, "SIGHUP: backend reopened");
	return 0;
}

/* Wait for the next read, the end of -d or a signal; the exit status. */
static int serve_loop(struct srv *s, const sigset_t *set)
{
	unsigned long long next, t_end = 0, step = (unsigned long long)(s->a.interval * 1e9);

	next = now_ns(CLOCK_MONOTONIC) + step;
	if (s->a.duration)
		t_end = now_ns(CLOCK_MONOTONIC) + (unsigned long long)(s->a.duration * 1e9);
	for (;;) {
		unsigned long long now = now_ns(CLOCK_MONOTONIC), until = next;
		struct timespec ts;
		int sig;

		if (t_end && t_end < until)
			until = t_end;
		if (until > now) {
			ts.tv_sec = (until - now) / 1000000000ULL;
			ts.tv_nsec = (until - now) % 1000000000ULL;
			sig = sigtimedwait(set, NULL, &ts);
		} else {
			sig = -1;
			errno = EAGAIN;
		}
		if (sig == SIGTERM || sig == SIGINT)
			return 0;
		if (sig == SIGHUP) {
			if (serve_reopen(s))
				return 1;
			continue;
		}
		if (sig < 0 && errno == EINTR)
			continue;
		now = now_ns(CLOCK_MONOTONIC);
		if (now >= next) {
			collect(s);
			if (s->a.textfile)
				write_textfile(s);
			next += step;
			if (next <= now)	/* fell behind: skip, do not burst */
				next = now + step;
		}
		if (t_end && now >= t_end)
			return 0;
	}
}

static void serve_cleanup(struct srv *s, const sigset_t *orig)
{
	fl_http_stop(s->http);
	fl_be_stop(&s->be);
	if (s->stats_fd >= 0)
		close(s->stats_fd);
	fl_vmstat_free(&s->vm);
	if (s->model_ok)
		fl_serve_model_free(&s->m);
	pthread_mutex_destroy(&s->mu);
	sigprocmask(SIG_SETMASK, orig, NULL);
}

int cmd_serve(int argc, char **argv)
{
	struct srv s = { .stats_fd = -1 };
	char err[512];
	sigset_t set, orig;
	int ret = fl_args_exit(parse_serve_args(argc, argv, &s.a, err, sizeof(err)), "serve",
			       err, usage);

	if (ret >= 0)
		return ret;
	/* --listen is a usage error before anything else is looked at */
	{
		struct sockaddr_storage sa;
		unsigned int salen;

		if (fl_http_parse_listen(s.a.listen, &sa, &salen, err, sizeof(err)))
			return fl_usage_error("serve", "%s", err);
	}
	ret = serve_precheck(&s);
	if (ret)
		return ret;
	pthread_mutex_init(&s.mu, NULL);
	/* the HTTP threads inherit this mask: the signals come to sigtimedwait here */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &orig);
	signal(SIGPIPE, SIG_IGN);
	if (serve_start(&s)) {
		ret = 1;
	} else {
		ret = serve_loop(&s, &set);
		if (save_output(&s))
			ret = 1;
	}
	serve_cleanup(&s, &orig);
	if (!ret && !s.a.quiet)
		fprintf(stderr, "faultline serve: detached, exiting\n");
	return ret;
}
