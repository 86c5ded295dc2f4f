// SPDX-License-Identifier: GPL-2.0
/*
 * faultline record: attach a backend (eBPF or faultline.ko), run CMD (held
 * on a pipe until the hooks are live) or trace a PID / the whole system, and
 * write snapshot file(s) atomically.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <dirent.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "atomic.h"
#include "backend.h"
#include "backend_kmod.h"
#include "blame_collect.h"
#include "commands.h"
#include "errbuf.h"
#include "kfeatures.h"
#include "ksyms.h"
#include "phases.h"
#include "report_common.h"
#include "snapshot.h"
#include "tags.h"
#include "vmstat.h"

struct rec {
	struct fl_record_args a;	/* the options */

	struct fl_be be;	/* the backend in use (user/backend.c): be.id, be.bpf */
	struct fl_phases *ph;
	struct fl_blame *bl;	/* --blame */
	struct btf *btf;	/* the kernel's, probed once for the backend and phases */
	struct fl_snapshot acc;	/* every window merged, for the summary */
	const char *locks_caveat;	/* --locks on a machine that may hide spinlock waits */
	bool dir_mode;
	unsigned int tgid;
	pid_t child;
	int release_fd;
	int stats_fd;		/* --self-cost: BPF run-time statistics on while open */
	struct fl_vmstat vm;
	unsigned long long win_real, win_mono;
	unsigned int nsnap;
	char cmdline[512];
	/* the run (record_setup, record_loop, record_cleanup) */
	sigset_t orig;		/* the signal mask before ours */
	bool masked;		/* orig saved: restore it */
	unsigned long long end_at, next_tick;	/* CLOCK_MONOTONIC ns, 0 = none */
	int child_status;	/* CMD's wait status, -1 while unknown */
	int ret;		/* 1 once a snapshot failed */
};

static volatile sig_atomic_t got_int, got_term, int_from_user;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig == SIGINT) {
		got_int = 1;
		if (si && si->si_code == SI_USER)
			int_from_user = 1;
	} else if (sig == SIGTERM) {
		got_term = 1;
	}
}

static void on_chld(int sig)
{
	(void)sig;
}

static unsigned long long now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: faultline record [-o FILE|DIR] [-b auto|bpf|kmod] [--tier fentry|kprobe|tracepoint]\n"
"                        [-a | -p PID] [-i SEC] [-d SEC] [-q] [-- CMD [ARGS...]]\n"
"  -o, --output FILE|DIR  snapshot file (default faultline.snap); a directory (existing,\n"
"                         ending in '/', or with -i) gets DIR/snap-NNNN.snap\n"
"  -b, --backend B        auto (default): bpf fentry tier, else faultline.ko if loaded,\n"
"                         else bpf kprobe, else bpf tracepoint tier\n"
"      --tier T           use only this bpf tier\n"
"  -a, --all              trace every task (system-wide)\n"
"  -p, --pid PID          trace this process (its thread group and children)\n"
"  -i, --interval SEC     one snapshot per interval (needs a directory output)\n"
"  -d, --duration SEC     stop after SEC seconds (CMD gets SIGTERM)\n"
"  -q, --quiet            no summary\n"
"      --phases           also time the phases of each fault (see Documentation/phases.rst)\n"
"      --locks            also record contended lock classes\n"
"      --blame            also name who held mmap_lock for write while faults waited\n"
"                         (implies --locks; see Documentation/blame.rst)\n"
"      --self-cost        also time faultline's own BPF programs (kernel BPF run-time\n"
"                         statistics, on for the run): runs and ns per program\n"
"      --handle-mm-fault  also time each handle_mm_fault call (an entry hook per call:\n"
"                         it about doubles what the bpf tiers cost a fault; -b kmod:\n"
"                         one clock read more); --hmf is the same\n"
"      --mmap-lock        record mmap_lock wait/hold where it is off by default for its\n"
"                         cost (kernels < 6.14 with no lockless fault path: see probe)\n"
"With CMD: CMD and its children are traced, its exit status is returned.\n");
}

static int parse_uint(const char *s, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v > 0x7fffffff)
		return -1;
	*out = v;
	return 0;
}

/* tgid of PID (a thread id works too), 0 if it does not exist. */
static unsigned int tgid_of(unsigned int pid)
{
	char path[64], line[256];
	unsigned int tgid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %u", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* Has process TGID ended (gone, or a zombie nobody reaped yet)? */
static bool process_ended(unsigned int tgid)
{
	char path[64], buf[512], *rp;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/stat", tgid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	rp = strrchr(buf, ')');		/* comm may contain anything */
	return rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X');
}

/* fork CMD, held until release_child(); returns 0 or -1 */
static int spawn_child(struct rec *r, const sigset_t *orig_mask)
{
	pid_t parent;
	int p[2];
	char c;

	if (pipe2(p, O_CLOEXEC)) {
		fprintf(stderr, "faultline record: pipe: %s\n", strerror(errno));
		return -1;
	}
	parent = getpid();
	r->child = fork();
	if (r->child < 0) {
		fprintf(stderr, "faultline record: fork: %s\n", strerror(errno));
		close(p[0]);
		close(p[1]);
		r->child = 0;
		return -1;
	}
	if (r->child == 0) {
		/* CMD gets the signal mask and dispositions we started with */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, orig_mask, NULL);
		/* CMD dies with its recorder (a SIGKILLed record leaves no orphan) */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127);	/* recorder gave up before starting */
		close(p[0]);
		execvp(r->a.cmd[0], r->a.cmd);
		fprintf(stderr, "faultline record: cannot run '%s': %s\n", r->a.cmd[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	r->release_fd = p[1];
	return 0;
}

static void release_child(struct rec *r)
{
	if (r->release_fd < 0)
		return;
	if (write(r->release_fd, "g", 1) != 1)
		fprintf(stderr, "faultline record: releasing the command: %s\n", strerror(errno));
	close(r->release_fd);
	r->release_fd = -1;
}

static int start_backend(struct rec *r)
{
	struct fl_be_req req = {
		.cmd = "record",
		.backend_req = r->a.backend_req,
		.tier_req = r->a.tier_req,
		.quiet = r->a.quiet,
		.blame = r->a.blame,
		.bpf = {
			.system_wide = r->a.system_wide,
			.tgid = r->tgid,
			.follow_fork = true,
			.time_hmf = r->a.time_hmf,
			.mmap_lock = r->a.mmap_lock,
			.btf = r->btf,
		},
	};

	return fl_be_start(&r->be, &req);
}

/*
 * The one cleanup path, after a run or a start that failed: hooks off, the
 * command reaped (an unreleased one reads EOF and exits 127; one that -d
 * asked to stop is waited for), our signal mask undone, BPF run-time
 * statistics off.  Idempotent.
 */
static void record_cleanup(struct rec *r)
{
	int st = 0;

	if (r->ph)
		fl_phases_stop(r->ph);
	r->ph = NULL;
	fl_blame_stop(r->bl);
	r->bl = NULL;
	fl_be_stop(&r->be);
	fl_btf_free(r->btf);
	r->btf = NULL;
	if (r->child > 0) {
		if (r->release_fd >= 0) {
			close(r->release_fd);	/* never released: it exits 127 */
			r->release_fd = -1;
		}
		while (waitpid(r->child, &st, 0) < 0 && errno == EINTR)
			;
		r->child_status = st;
		r->child = 0;
	}
	if (r->masked)
		sigprocmask(SIG_SETMASK, &r->orig, NULL);
	r->masked = false;
	if (r->stats_fd >= 0)
		close(r->stats_fd);	/* BPF run-time statistics off again */
	r->stats_fd = -1;
}

static int path_is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/*
 * Can OUT be written (a directory with dir_mode)?  Checked before anything
 * starts; nothing is created or removed until the hooks are attached, so a
 * refused recording leaves no empty directory and deletes no old snapshot.
 */
static int check_output(const char *out, bool dir_mode)
{
	char dir[4096];
	struct stat st;
	int bad;

	if (dir_mode && !stat(out, &st)) {
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "faultline record: %s: not a directory\n", out);
			return -1;
		}
		snprintf(dir, sizeof(dir), "%s", out);
		bad = access(dir, W_OK);
	} else {
		if (dir_mode && errno != ENOENT) {
			fprintf(stderr, "faultline record: %s: %s\n", out, strerror(errno));
			return -1;
		}
		/* the directory the file (or the new directory) goes into */
		bad = fl_atomic_dir_ok(out, dir, sizeof(dir));
	}
	if (bad) {
		fprintf(stderr, "faultline record: cannot write %s: %s: %s\n", out, dir,
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Can CMD be executed, as execvp() would find it?  Asked before anything is
 * attached, so a typo costs nothing and writes nothing.  0, or -1 with
 * errno (ENOENT, EACCES).
 */
static int cmd_runnable(const char *cmd)
{
	const char *p = getenv("PATH"), *e;
	char full[4096];
	int err = ENOENT;

	if (strchr(cmd, '/'))
		return access(cmd, X_OK) ? -1 : 0;
	if (!p || !*p)
		p = "/bin:/usr/bin";
	for (; ; p = e + 1) {
		e = strchrnul(p, ':');
		snprintf(full, sizeof(full), "%.*s%s%s", (int)(e - p), p, e > p ? "/" : "", cmd);
		if (!access(full, X_OK)) {
			struct stat st;

			if (!stat(full, &st) && S_ISREG(st.st_mode))
				return 0;
		} else if (errno == EACCES) {
			err = EACCES;
		}
		if (!*e)
			break;
	}
	errno = err;
	return -1;
}

/* Remove snap-*.snap left by an earlier recording into the same directory. */
static void clear_dir(const char *dir)
{
	char path[4096], err[16], **names;
	unsigned int n;

	if (fl_snapshot_list_dir(dir, &names, &n, err, sizeof(err)))
		return;
	for (unsigned int i = 0; i < n; i++) {
		if (strlen(names[i]) > 10 && !strncmp(names[i], "snap-", 5)) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			unlink(path);
		}
	}
	fl_snapshot_names_free(names, n);
}

/*
 * The tags every window gets: the command, the --locks caveat, the
 * interval index (< 0: none).  A refused tag (a key or value the format
 * cannot hold, or no memory) fails the window: a snapshot that silently
 * lacked its command or its interval index would be read as another
 * recording's, or merged out of order.
 */
int fl_record_tag_window(struct fl_snapshot *s, const char *cmdline, const char *caveat,
			 long long interval_index, char *err, size_t errlen)
{
	char buf[32];

	if (cmdline && cmdline[0] && fl_snapshot_set_tag(s, FL_TAG_COMMAND, cmdline))
		return fl_fail(err, errlen, "snapshot tag '%s' refused (a newline, or no memory)",
			       FL_TAG_COMMAND);
	if (caveat && fl_snapshot_set_tag(s, FL_TAG_LOCKS_CAVEAT, caveat))
		return fl_fail(err, errlen, "snapshot tag '%s' refused (a newline, or no memory)",
			       FL_TAG_LOCKS_CAVEAT);
	if (interval_index >= 0) {
		snprintf(buf, sizeof(buf), "%lld", interval_index);
		if (fl_snapshot_set_tag(s, FL_TAG_INTERVAL_INDEX, buf))
			return fl_fail(err, errlen, "snapshot tag '%s' refused (no memory)",
				       FL_TAG_INTERVAL_INDEX);
	}
	return 0;
}

/* A regular file at PATH becomes PATH.old (replacing an older one). */
static int keep_old(const char *path)
{
	char old[4096];
	struct stat st;

	if (lstat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (snprintf(old, sizeof(old), "%s.old", path) >= (int)sizeof(old)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return rename(path, old);
}

/* Take the window that ends now into a snapshot and write it. */
static int take_snapshot(struct rec *r, bool rotate, struct fl_snapshot *s, bool *written,
			 char *path, size_t pathlen)
{
	unsigned long long end_real, end_mono;
	char err[512];
	int ret = -1;

	memset(s, 0, sizeof(*s));
	*written = false;
	end_real = now_ns(CLOCK_REALTIME);
	end_mono = now_ns(CLOCK_MONOTONIC);
	/*
	 * The last window: the counters first, then vmstat, so the vmstat
	 * delta's window (baseline read before arming) contains the counters'
	 * (faults <= pgfault delta, our own reads' faults included).  A
	 * rotation reads vmstat first: its end is the next window's start.
	 */
	if (rotate && fl_vmstat_read(&r->vm, NULL, true, err, sizeof(err)) && !r->a.quiet)
		fprintf(stderr, "faultline record: %s (vmstat not recorded)\n", err);
	if (!rotate && fl_be_end(&r->be, err, sizeof(err))) {
		fprintf(stderr, "faultline record: ending the window: %s\n", err);
		return -1;
	}
	ret = fl_be_read(&r->be, s, rotate, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "faultline record: reading the statistics: %s\n", err);
		return -1;
	}
	if (!rotate && fl_vmstat_read(&r->vm, NULL, true, err, sizeof(err)) && !r->a.quiet)
		fprintf(stderr, "faultline record: %s (vmstat not recorded)\n", err);
	s->hdr.t_start_ns = r->win_real;
	s->hdr.t_end_ns = end_real;
	s->hdr.duration_ns = end_mono - r->win_mono;
	if (fl_vmstat_to_snapshot(&r->vm, &s->vmstat, &s->nr_vmstat)) {
		fprintf(stderr, "faultline record: out of memory\n");
		return -1;
	}
	if (r->ph && fl_phases_read(r->ph, s, err, sizeof(err)) && !r->a.quiet)
		fprintf(stderr, "faultline record: phases: %s\n", err);
	if (r->bl && fl_blame_read(r->bl, s, err, sizeof(err)) && !r->a.quiet)
		fprintf(stderr, "faultline record: blame: %s\n", err);
	if (r->stats_fd >= 0 && (fl_bpf_tag_own_runs(r->be.bpf, s) ||
				 (r->ph && fl_phases_tag_runs(r->ph, s))) && !r->a.quiet)
		fprintf(stderr, "faultline record: self-cost: out of memory\n");
	if (fl_tags_collect(s) && !r->a.quiet)
		fprintf(stderr, "faultline record: machine tags incomplete\n");
	if (fl_record_tag_window(s, r->cmdline, r->locks_caveat,
				 r->a.interval > 0 ? (long long)r->nsnap : -1, err, sizeof(err))) {
		fprintf(stderr, "faultline record: %s\n", err);
		return -1;
	}
	fl_vmstat_roll(&r->vm);
	r->win_real = end_real;
	r->win_mono = end_mono;

	if (r->dir_mode)
		snprintf(path, pathlen, "%s/snap-%04u.snap", r->a.out, r->nsnap);
	else
		snprintf(path, pathlen, "%s", r->a.out);
	/* like perf.data.old: an earlier recording at -o is kept, not overwritten */
	if (!r->dir_mode && !r->nsnap && keep_old(path)) {
		fprintf(stderr, "faultline record: keeping %s as %s.old: %s\n", path, path,
			strerror(errno));
		return -1;
	}
	r->nsnap++;
	if (fl_snapshot_write_file(path, s, err, sizeof(err))) {
		fprintf(stderr, "faultline record: %s\n", err);
		return -1;
	}
	*written = true;
	if (!r->acc.cpus) {
		/* the first window becomes the summary: no second copy (4 MB at 256 CPUs) */
		r->acc = *s;
		memset(s, 0, sizeof(*s));
	} else if (fl_snapshot_merge(&r->acc, s, err, sizeof(err)) && !r->a.quiet) {
		fprintf(stderr, "faultline record: summary: %s\n", err);
	}
	return 0;
}

/* The rules between options, once all are read. */
static int check_record_args(const struct fl_record_args *a, char *err, size_t errlen)
{
	if (a->out && !*a->out)
		return fl_args_bad(err, errlen, "empty output path (-o)");
	if (a->system_wide && a->pid)
		return fl_args_bad(err, errlen, "-a and -p are exclusive");
	if (a->pid && a->cmd)
		return fl_args_bad(err, errlen, "-p and a command are exclusive");
	if (!a->system_wide && !a->pid && !a->cmd)
		return fl_args_bad(err, errlen, "nothing to trace: give -- CMD, -p PID or -a");
	if (a->backend_req == FL_REC_B_KMOD && a->tier_req && a->tier_req != FL_TIER_KPROBE)
		return fl_args_bad(err, errlen, "the kmod backend has only the kprobe tier");
	if (a->interval > 0 && a->backend_req == FL_REC_B_KMOD)
		return fl_args_bad(err, errlen, "-i needs the bpf backend (the module has no interval reset)");
	if ((a->phases || a->locks) && a->interval > 0)
		return fl_args_bad(err, errlen, "--phases/--locks%s figures are cumulative: not with -i",
				   a->blame ? "/--blame" : "");
	if (a->time_hmf && a->tier_req == FL_TIER_TRACEPOINT)
		return fl_args_bad(err, errlen, "%s needs a handle_mm_fault hook: not with --tier tracepoint",
				   a->hmf_opt);
	if (a->self_cost && a->backend_req == FL_REC_B_KMOD)
		return fl_args_bad(err, errlen, "--self-cost times BPF programs: not with -b kmod");
	return FL_ARGS_RUN;
}

/* getopt values of the long options without a short one */
enum { O_HMF_OLD = 256 };

int parse_record_args(int argc, char **argv, struct fl_record_args *a, char *err, size_t errlen)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "backend", required_argument, NULL, 'b' },
		{ "tier", required_argument, NULL, 'T' },
		{ "all", no_argument, NULL, 'a' },
		{ "pid", required_argument, NULL, 'p' },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "phases", no_argument, NULL, 'P' },
		{ "locks", no_argument, NULL, 'L' },
		{ "blame", no_argument, NULL, 'B' },
		{ "self-cost", no_argument, NULL, 'C' },
		{ "handle-mm-fault", no_argument, NULL, 'H' },
		{ "hmf", no_argument, NULL, O_HMF_OLD },	/* its first spelling */
		{ "mmap-lock", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int c;

	*a = (struct fl_record_args){ 0 };
	err[0] = '\0';
	fl_getopt_start();
	while ((c = getopt_long(argc, argv, "+:o:b:ap:i:d:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			a->out = optarg;
			break;
		case 'b':
			if (fl_parse_backend(optarg, &a->backend_req))
				return fl_args_bad(err, errlen, "unknown backend '%s' (auto, bpf, kmod)", optarg);
			break;
		case 'T':
			if (fl_parse_tier(optarg, &a->tier_req))
				return fl_args_bad(err, errlen, "unknown tier '%s' (fentry, kprobe, tracepoint)", optarg);
			break;
		case 'a':
			a->system_wide = true;
			break;
		case 'p':
			if (parse_uint(optarg, &a->pid))
				return fl_args_bad(err, errlen, "invalid PID '%s'", optarg);
			break;
		case 'i':
			if (fl_parse_secs(optarg, 0, &a->interval))
				return fl_args_bad(err, errlen, "invalid interval '%s' (seconds > 0)", optarg);
			break;
		case 'd':
			if (fl_parse_secs(optarg, 0, &a->duration))
				return fl_args_bad(err, errlen, "invalid duration '%s' (seconds > 0)", optarg);
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'P':
			a->phases = true;
			break;
		case 'L':
			a->locks = true;
			break;
		case 'B':
			a->blame = true;
			a->locks = true;
			break;
		case 'C':
			a->self_cost = true;
			break;
		case 'H':
		case O_HMF_OLD:
			a->time_hmf = true;
			a->hmf_opt = c == 'H' ? "--handle-mm-fault" : "--hmf";
			break;
		case 'M':
			a->mmap_lock = true;
			break;
		case 'h':
			return FL_ARGS_HELP;
		default:
			return fl_args_getopt_bad(c, argv, opts, err, errlen);
		}
	}
	if (optind < argc)
		a->cmd = argv + optind;
	return check_record_args(a, err, errlen);
}

/* --phases / --locks: the second skeleton, on the backend's tgid filter. */
static int start_phases(struct rec *r)
{
	struct fl_phases_opts po = {
		.btf = r->btf,
		.tgids = fl_be_tgids(&r->be),
		.phases = r->a.phases,
		.locks = r->a.locks,
		.mmap_lock = r->a.mmap_lock,
	};
	char err[512];

	r->locks_caveat = r->a.locks ? fl_spin_contention_caveat(NULL) : NULL;
	if (r->locks_caveat && !r->a.quiet)
		fprintf(stderr, "faultline record: note: %s\n", r->locks_caveat);
	r->ph = fl_phases_start(&po, err, sizeof(err));
	if (!r->ph) {
		fprintf(stderr, "faultline record: --phases/--locks: %s\n", err);
		return -1;
	}
	if (!r->a.quiet)
		fprintf(stderr, "faultline record: %s\n", fl_phases_describe(r->ph));
	return 0;
}

/*
 * --blame: the holder-attribution skeleton, on the backend's tgid filter; with the
 * module, the module's own holder hooks (armed by the backend's start).
 */
static int start_blame(struct rec *r)
{
	struct fl_blame_opts bo = {
		.btf = r->btf,
		.tgids = fl_be_tgids(&r->be),
	};
	char err[512];

	if (r->be.id == FL_BACKEND_KMOD)
		r->bl = fl_blame_start_kmod(r->be.kmod_blame_why[0] ? r->be.kmod_blame_why : NULL,
					    err, sizeof(err));
	else
		r->bl = fl_blame_start(&bo, err, sizeof(err));
	if (!r->bl) {
		fprintf(stderr, "faultline record: --blame: %s\n", err);
		return -1;
	}
	if (!r->a.quiet)
		fprintf(stderr, "faultline record: %s\n", fl_blame_describe(r->bl));
	return 0;
}

/*
 * Everything up to the release of CMD: output checked, backend and phases
 * started, signals blocked (handled only inside ppoll()).  0, or 1 with a
 * message; record_cleanup() undoes what was done either way.
 */
static int record_setup(struct rec *r)
{
	struct sigaction sa = { 0 };
	sigset_t block;
	char err[512];

	if (!r->a.out)
		r->a.out = r->a.interval > 0 ? "faultline.d" : "faultline.snap";
	r->dir_mode = r->a.interval > 0 || path_is_dir(r->a.out) ||
		      r->a.out[strlen(r->a.out) - 1] == '/';
	/* fail now, not after the workload ran; create nothing yet */
	if (check_output(r->a.out, r->dir_mode))
		return 1;
	if (r->a.cmd && cmd_runnable(r->a.cmd[0])) {
		fprintf(stderr, "faultline record: cannot run '%s': %s\n", r->a.cmd[0], strerror(errno));
		return 127;
	}
	if (r->a.cmd) {
		size_t off = 0;

		for (int i = 0; r->a.cmd[i] && off < sizeof(r->cmdline) - 1; i++)
			off += snprintf(r->cmdline + off, sizeof(r->cmdline) - off, "%s%s",
					i ? " " : "", r->a.cmd[i]);
		for (char *p = r->cmdline; *p; p++)
			if (*p == '\n')
				*p = ' ';
	}
	if (r->a.pid) {
		r->tgid = tgid_of(r->a.pid);
		if (!r->tgid) {
			fprintf(stderr, "faultline record: no process %u\n", r->a.pid);
			return 1;
		}
	}
	fl_bpf_setup_libbpf();
	/* before any program is attached, so that every run is timed */
	if (r->a.self_cost) {
		r->stats_fd = fl_bpf_stats_enable(err, sizeof(err));
		if (r->stats_fd < 0) {
			fprintf(stderr, "faultline record: --self-cost: %s\n", err);
			return 1;
		}
	}

	/* signals: handled only inside ppoll() in record_loop() */
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGCHLD, on_chld);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &r->orig);
	r->masked = true;

	if (r->a.cmd) {
		if (spawn_child(r, &r->orig))
			return 1;
		if (!r->a.system_wide)
			r->tgid = r->child;
	}
	/*
	 * Only for the skeletons that take it (phases/locks; --blame implies
	 * --locks): the bpf backend alone reads its features from a BTF it
	 * frees before libbpf parses its own, so a plain record never holds
	 * two (its peak RSS, overhead.rst), and -b kmod alone parses none
	 * (~2700 pages faulted in).  NULL here: phases say why they are
	 * unavailable.  Those skeletons name kernel text: kallsyms read once,
	 * here (ksyms.h).
	 */
	if (r->a.phases || r->a.locks) {
		r->btf = fl_btf_load(err, sizeof(err));
		fl_ksyms_get(NULL, 0);
	}
	if (start_backend(r))
		return 1;
	if (r->a.self_cost && r->be.id != FL_BACKEND_BPF) {
		fprintf(stderr, "faultline record: --self-cost times BPF programs; the module backend was chosen (use -b bpf)\n");
		return 1;
	}
	if ((r->a.phases || r->a.locks) && start_phases(r))
		return 1;
	if (r->a.blame && start_blame(r))
		return 1;
	if (r->dir_mode) {
		if ((mkdir(r->a.out, 0755) && errno != EEXIST) || !path_is_dir(r->a.out)) {
			fprintf(stderr, "faultline record: %s: %s\n", r->a.out,
				errno == EEXIST ? "not a directory" : strerror(errno));
			return 1;
		}
		clear_dir(r->a.out);
	}
	if (fl_vmstat_read(&r->vm, NULL, false, err, sizeof(err)) && !r->a.quiet)
		fprintf(stderr, "faultline record: %s (vmstat not recorded)\n", err);
	/* everything attached, the baseline read: one window from here */
	if (fl_be_arm(&r->be, err, sizeof(err))) {
		fprintf(stderr, "faultline record: %s\n", err);
		return 1;
	}
	r->win_real = now_ns(CLOCK_REALTIME);
	r->win_mono = now_ns(CLOCK_MONOTONIC);
	if (r->a.duration > 0)
		r->end_at = r->win_mono + (unsigned long long)(r->a.duration * 1e9);
	if (r->a.interval > 0)
		r->next_tick = r->win_mono + (unsigned long long)(r->a.interval * 1e9);
	release_child(r);
	if (!r->a.quiet && !r->a.cmd)
		fprintf(stderr, "faultline record: tracing %s; Ctrl-C to stop\n",
			r->a.system_wide ? "system-wide" : "the process");
	return 0;
}

/* Until CMD exits, -p's process ends, -d runs out or a signal: -i windows on the way. */
static void record_loop(struct rec *r)
{
	char path[4096];
	bool written;
	int status = 0;

	for (;;) {
		struct timespec ts;
		unsigned long long now, wake;

		if (r->child > 0) {
			pid_t w = waitpid(r->child, &status, WNOHANG);

			if (w == r->child) {
				r->child_status = status;
				r->child = 0;
				break;
			}
		}
		if (r->a.pid && process_ended(r->tgid))
			break;
		if (got_int) {
			got_int = 0;
			if (r->child <= 0)
				break;
			/* the terminal sent it to the command too; forward a kill() */
			if (int_from_user)
				kill(r->child, SIGINT);
			int_from_user = 0;
		}
		if (got_term) {
			got_term = 0;
			if (r->child <= 0)
				break;
			kill(r->child, SIGTERM);
		}
		now = now_ns(CLOCK_MONOTONIC);
		if (r->end_at && now >= r->end_at) {
			/* the recording ends now; CMD is asked to stop and waited for after */
			if (r->child > 0)
				kill(r->child, SIGTERM);
			break;
		}
		if (r->next_tick && now >= r->next_tick) {
			struct fl_snapshot s;

			if (take_snapshot(r, true, &s, &written, path, sizeof(path)))
				r->ret = 1;
			fl_snapshot_free(&s);
			while (r->next_tick <= now)
				r->next_tick += (unsigned long long)(r->a.interval * 1e9);
		}
		wake = now + 1000000000ULL;	/* re-check -p targets every second */
		if (r->end_at && r->end_at < wake)
			wake = r->end_at;
		if (r->next_tick && r->next_tick < wake)
			wake = r->next_tick;
		ts.tv_sec = (wake - now) / 1000000000ULL;
		ts.tv_nsec = (wake - now) % 1000000000ULL;
		ppoll(NULL, 0, &ts, &r->orig);
	}
}

/* The summary of every window (r->acc) after the last snapshot PATH was written. */
static void record_summary(struct rec *r, const char *path)
{
	struct fl_cpu_stats *tot;

	if (r->a.quiet || !r->acc.cpus || !(tot = calloc(1, sizeof(*tot))))
		return;
	fl_snapshot_total(&r->acc, tot);
	printf("faultline record: %s\n", r->dir_mode ? r->a.out : path);
	fl_print_summary(stdout, &r->acc, tot);
	if (r->dir_mode)
		printf("wrote %u snapshot(s) to %s/ (faultline report %s)\n",
		       r->nsnap, r->a.out, r->a.out);
	else
		printf("wrote %s\n", path);
	free(tot);
}

int cmd_record(int argc, char **argv)
{
	struct rec r = { .release_fd = -1, .stats_fd = -1, .child_status = -1 };
	struct fl_snapshot last = { 0 };
	bool have_last = false, written;
	char err[512], path[4096];
	int rc;

	rc = fl_args_exit(parse_record_args(argc, argv, &r.a, err, sizeof(err)), "record", err,
			  usage);
	if (rc >= 0)
		return rc;
	rc = record_setup(&r);
	if (!rc) {
		record_loop(&r);
		if (take_snapshot(&r, r.a.interval > 0, &last, &written, path, sizeof(path)))
			r.ret = 1;
		else
			have_last = true;
	}
	record_cleanup(&r);
	if (have_last)
		record_summary(&r, path);
	fl_snapshot_free(&last);
	fl_snapshot_free(&r.acc);
	fl_vmstat_free(&r.vm);
	if (rc)
		return rc;
	if (r.child_status >= 0 && r.a.cmd) {
		if (WIFEXITED(r.child_status))
			return r.ret ? r.ret : WEXITSTATUS(r.child_status);
		if (WIFSIGNALED(r.child_status))
			return 128 + WTERMSIG(r.child_status);
	}
	return r.ret;
}
