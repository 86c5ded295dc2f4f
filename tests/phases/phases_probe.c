// SPDX-License-Identifier: GPL-2.0
/*
 * Standalone test driver for user/phases.c (until `faultline record
 * --phases/--locks` is wired in): run a command with the phases skeleton
 * attached to it, then print the report tables and key=value lines that
 * the test-box scenarios (tests/integration/phases_*.sh) check.
 *
 *   phases_probe [-p] [-l] [-c] [-s] [-o SNAPSHOT] [-v] -- CMD [ARGS...]
 *
 * -c keeps the callers of every lock class, not only "other" (testing).
 * -s shares a tgid map created here, as `record` shares the main backend's
 * (struct fl_phases_opts.tgids_map_fd), instead of the skeleton's own.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "phases.h"

static bool verbose;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG || (!verbose && level == LIBBPF_INFO))
		return 0;
	if (!verbose)
		return 0;	/* load failures are reported as "unavailable (why)" */
	return vfprintf(stderr, fmt, ap);
}

static void usage(void)
{
	fprintf(stderr, "usage: phases_probe [-p] [-l] [-c] [-s] [-o SNAPSHOT] [-v] -- CMD [ARGS...]\n");
	exit(2);
}

static void kv_phases(const struct fl_snapshot *s)
{
	const struct fl_phase_stats *ps;
	struct fl_phase_stats t;
	unsigned int nr, p;

	ps = fl_snapshot_phases(s, &nr);
	if (!ps) {
		printf("kv phases_section=0\n");
		return;
	}
	fl_phase_stats_sum(ps, nr, NULL, 0, &t);
	printf("kv phases_section=1\nkv faults=%llu\nkv lat_sum=%llu\nkv unattributed_sum=%llu\n"
	       "kv overrun=%llu\nkv unattributed_pct=%llu\n", t.faults, t.lat_sum,
	       t.unattributed_sum, t.overrun,
	       t.lat_sum ? t.unattributed_sum * 100 / t.lat_sum : 0);
	for (p = 0; p < FL_PH_NR; p++)
		printf("kv phase_%s_count=%llu\nkv phase_%s_sum=%llu\n", fl_phase_name(p),
		       t.hist[p].count, fl_phase_name(p), t.hist[p].sum);
}

static void kv_locks(const struct fl_snapshot *s)
{
	const struct fl_lock_stats *ls;
	struct fl_lock_stats t;
	unsigned int nr, k, dom;

	ls = fl_snapshot_locks(s, &nr);
	if (!ls) {
		printf("kv locks_section=0\n");
		return;
	}
	fl_lock_stats_sum(ls, nr, NULL, 0, &t);
	printf("kv locks_section=1\n");
	for (k = 0; k < FL_LK_NR; k++)
		printf("kv lock_%s_count=%llu\nkv lock_%s_wait=%llu\n", fl_lock_class_name(k),
		       t.count[k], fl_lock_class_name(k), t.wait[k].sum);
	dom = fl_lock_dominant(&t);
	printf("kv lock_dominant=%s\n", dom < FL_LK_NR ? fl_lock_class_name(dom) : "none");
}

int main(int argc, char **argv)
{
	struct fl_phases_opts po = { .tgids_map_fd = -1 };
	struct fl_snapshot s = {0};
	struct fl_phases *ph = NULL;
	struct timespec t0, t1, r0;
	struct utsname u;
	const char *outpath = NULL;
	bool share = false;
	int opt, pipefd[2], status, rc = 1, ncpu, mapfd = -1;
	char err[256], go = 1;
	pid_t pid;

	while ((opt = getopt(argc, argv, "plcso:v")) != -1) {
		switch (opt) {
		case 'p': po.phases = true; break;
		case 'l': po.locks = true; break;
		case 's': share = true; break;
		case 'c': po.all_callers = true; break;
		case 'o': outpath = optarg; break;
		case 'v': verbose = true; break;
		default: usage();
		}
	}
	if (optind >= argc || (!po.phases && !po.locks))
		usage();
	libbpf_set_print(print_fn);

	if (pipe(pipefd))
		return perror("pipe"), 1;
	pid = fork();
	if (pid < 0)
		return perror("fork"), 1;
	if (pid == 0) {		/* wait until the filter has our tgid */
		close(pipefd[1]);
		if (read(pipefd[0], &go, 1) != 1)
			_exit(126);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "phases_probe: exec %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	close(pipefd[0]);
	if (share) {	/* the layout of faultline.bpf.c's `tgids` */
		__u32 tgid = pid;
		__u8 one = 1;

		mapfd = bpf_map_create(BPF_MAP_TYPE_HASH, "tgids", sizeof(__u32), sizeof(__u8),
				       8192, NULL);
		if (mapfd < 0 || bpf_map_update_elem(mapfd, &tgid, &one, BPF_ANY)) {
			fprintf(stderr, "phases_probe: shared tgid map: %s\n", strerror(errno));
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			return 1;
		}
		po.tgids_map_fd = mapfd;
	} else {
		po.tgid = pid;
	}
	ph = fl_phases_open(&po, err, sizeof(err));
	if (!ph) {
		fprintf(stderr, "phases_probe: %s\n", err);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 1;
	}
	printf("probe: %s\n", fl_phases_describe(ph));
	fflush(stdout);
	clock_gettime(CLOCK_REALTIME, &r0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (write(pipefd[1], &go, 1) != 1) {
		perror("phases_probe: start child");
		goto out;
	}
	close(pipefd[1]);
	if (waitpid(pid, &status, 0) < 0) {
		perror("phases_probe: waitpid");
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "phases_probe: command failed (status 0x%x)\n", status);
		goto out;
	}

	ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0 || fl_snapshot_alloc_cpus(&s, (unsigned int)ncpu)) {
		fprintf(stderr, "phases_probe: cannot size the snapshot\n");
		goto out;
	}
	s.hdr.magic = FL_SNAP_MAGIC;
	s.hdr.version = FL_SNAP_VERSION;
	s.hdr.header_size = sizeof(s.hdr);
	s.hdr.backend = FL_BACKEND_NONE;
	s.hdr.filter_tgid = pid;
	s.hdr.t_start_ns = (fl_u64)r0.tv_sec * 1000000000ULL + r0.tv_nsec;
	s.hdr.duration_ns = (fl_u64)(t1.tv_sec - t0.tv_sec) * 1000000000ULL + t1.tv_nsec - t0.tv_nsec;
	s.hdr.t_end_ns = s.hdr.t_start_ns + s.hdr.duration_ns;
	if (uname(&u) == 0)
		snprintf(s.hdr.kernel_release, sizeof(s.hdr.kernel_release), "%s", u.release);
	if (fl_phases_read(ph, &s, err, sizeof(err))) {
		fprintf(stderr, "phases_probe: %s\n", err);
		goto out;
	}
	if (po.phases) {
		fl_report_phases(&s, stdout, NULL);
		kv_phases(&s);
		printf("\n");
	}
	if (po.locks) {
		fl_report_locks(&s, stdout, NULL);
		kv_locks(&s);
	}
	if (outpath && fl_snapshot_write_file(outpath, &s, err, sizeof(err))) {
		fprintf(stderr, "phases_probe: %s\n", err);
		goto out;
	}
	rc = 0;
out:
	fl_phases_close(ph);
	if (mapfd >= 0)
		close(mapfd);
	fl_snapshot_free(&s);
	return rc;
}
