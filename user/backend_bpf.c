// SPDX-License-Identifier: GPL-2.0
/*
 * The eBPF backend.  One skeleton holds the programs of every tier; which of
 * them load is decided here from the kernel's BTF (kfeatures_btf.c): a
 * program on a function the kernel lacks would fail the whole load, and the
 * mmap_lock tracepoints have two prototypes.  Tiers are tried best first and
 * each refusal is kept as a note for the user.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "backend_bpf.h"
#include "errbuf.h"
#include "intask_set.h"
#include "preempt_model.h"
#include "selfcost.h"
#include "tgid_filter.h"
#include "topology.h"
#include "faultline.skel.h"

struct fl_bpf {
	struct faultline_bpf *skel;
	struct fl_kfeatures kf;
	struct fl_kvals kv;
	unsigned int tier;
	struct fl_bpf_opts opts;
	unsigned long long hooks_live, hooks_absent;
	unsigned int tgid;
	unsigned int nr_cpus;
	unsigned int slot;
	void *zeros;		/* zero_values(): slot-sized, read-only */
	size_t zeros_len;
	int gp_outer, gp_inner;	/* wait_programs(): a map-in-map, or -1 */
	char notes[2048];
	char kevents[8][64];	/* tracefs kretprobe events we created */
	unsigned int nkevents;
	const char *tracefs;
	struct fl_prog_runs runs[FL_MAX_PROGS];	/* fl_bpf_tag_own_runs: last totals */
};

/* ---- libbpf logging --------------------------------------------------- */

bool fl_verbose;
static char last_warning[512];

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[1024], *nl;
	va_list aq;

	if (fl_verbose) {
		va_copy(aq, ap);
		vfprintf(stderr, fmt, aq);
		va_end(aq);
	}
	/* libbpf's debug lines are most of its output: format only what is kept */
	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	/* keep the one-line summaries, not the verifier log */
	if (strstr(buf, "PROG LOAD LOG") || buf[0] == '\0' || buf[0] == ' ' || buf[0] == '\t')
		return 0;
	if (strstr(buf, "failed to load object") || strstr(buf, "failed to load BPF skeleton"))
		return 0;
	if (!strncmp(buf, "libbpf: ", 8)) {
		size_t l = strnlen(buf + 8, sizeof(last_warning) - 1);

		memcpy(last_warning, buf + 8, l);
		last_warning[l] = '\0';
	}
	return 0;
}

void fl_bpf_setup_libbpf(void)
{
	libbpf_set_print(libbpf_print);
}

const char *fl_bpf_last_libbpf_warning(void)
{
	return last_warning;
}

/* ---- program selection ------------------------------------------------ */

#define HOOK(h) (1ULL << (h))

enum prog_role {
	R_CORE,		/* the tier fails without it */
	R_OPTIONAL,	/* dropped (and its hook marked not live) if attach fails */
};

struct prog_plan {
	struct bpf_program *prog;
	unsigned long long hooks;
	enum prog_role role;
};

static int plan_add(struct prog_plan *plan, int n, struct bpf_program *p,
		    unsigned long long hooks, enum prog_role role)
{
	plan[n].prog = p;
	plan[n].hooks = hooks;
	plan[n].role = role;
	return n + 1;
}

/*
 * The kprobe tier's kretprobe alone on per-VMA-lock kernels: the call's lock
 * is read from the mmap_lock tracepoints (faultline.bpf.c, kret_flags()),
 * which must then be there; --handle-mm-fault needs the entry kprobe anyway.
 */
static bool kp_lock_infer(unsigned int tier, const struct fl_kfeatures *kf,
			  const struct fl_bpf_opts *o)
{
	struct fl_kvals kv;

	/*
	 * Not on a preemptible kernel: there the kprobe tier is the one whose
	 * every fault program runs preemption-disabled (kprobe, kretprobe, and
	 * page_fault_* with interrupts off), so nothing of a fault is lost to
	 * the recursion guard; the mmap_lock tracepoints are preemptible on 7.x
	 * (architecture.rst, "Preemptible kernels"): the entry kprobe reads
	 * the call's flags instead.
	 */
	if (tier != FL_TIER_KPROBE)
		return false;
	fl_kvals_from_features(kf, &kv);
	return !fl_kernel_preemptible() && !o->time_hmf && kf->has_hmf && !kf->has_do_hmf &&
	       kv.ll_kind == FL_LL_KIND_VMA_LOCK && kv.ll_infer &&
	       kf->tp_mmap_lock && !fl_mmap_lock_off(kf, o->mmap_lock);
}

static const char *preempt_guard_why = "not asked";

/*
 * The programs for TIER on a kernel with features KF.  Returns how many;
 * plan may be NULL-progged when skel is NULL (only the hook bits are used).
 */
static int make_plan(struct faultline_bpf *skel, unsigned int tier,
		     const struct fl_kfeatures *kf, const struct fl_bpf_opts *o,
		     struct prog_plan *plan)
{
	typeof(skel->progs) *P = skel ? &skel->progs : NULL;
	struct fl_kvals kv;
	unsigned long long exit_hooks;
	bool entry, lock_infer;
	/* the tracepoint tier's fault programs only count (faultline.bpf.c count_fault) */
	bool count = tier == FL_TIER_TRACEPOINT;
	int n = 0;

#define PG(x) (P ? P->x : NULL)
	/*
	 * Preemptible kernels: the fault start (fentry and kprobe tiers) and
	 * the lock events (every tier) with their bodies preemption-disabled
	 */
	bool guard = fl_preempt_guard(kf, &preempt_guard_why);
	bool pg = !count && tier != FL_TIER_TRACEPOINT && guard;

	if (kf->tp_pf_user)
		n = plan_add(plan, n, count ? PG(tp_pf_user_cnt) : pg ? PG(tp_pf_user_pg) : PG(tp_pf_user),
			     HOOK(FL_HOOK_PF_USER), R_CORE);
	if (kf->tp_pf_kernel)
		n = plan_add(plan, n, count ? PG(tp_pf_kern_cnt) :
				      pg ? PG(tp_pf_kernel_pg) : PG(tp_pf_kernel),
			     HOOK(FL_HOOK_PF_KERNEL), R_OPTIONAL);
	lock_infer = kp_lock_infer(tier, kf, o);
	if (kf->tp_mmap_lock && !fl_mmap_lock_off(kf, o->mmap_lock)) {
		bool m = kf->mmap_memcg == 1;
		/* the kprobe tier's VMA-lock inference reads acquire and release */
		int need = lock_infer ? R_CORE : R_OPTIONAL;

#define PGM(x) (guard ? (m ? PG(x##_memcg_pg) : PG(x##_pg)) : (m ? PG(x##_memcg) : PG(x)))
		n = plan_add(plan, n, PGM(tp_mmap_start), HOOK(FL_HOOK_MMAP_START), R_OPTIONAL);
		n = plan_add(plan, n, PGM(tp_mmap_acq), HOOK(FL_HOOK_MMAP_ACQUIRED), need);
		n = plan_add(plan, n, PGM(tp_mmap_rel), HOOK(FL_HOOK_MMAP_RELEASED), need);
#undef PGM
	}
	if (kf->tp_contention) {
		n = plan_add(plan, n, guard ? PG(tp_contention_begin_pg) : PG(tp_contention_begin),
			     HOOK(FL_HOOK_CONTENTION_BEGIN), R_OPTIONAL);
		n = plan_add(plan, n, guard ? PG(tp_contention_end_pg) : PG(tp_contention_end),
			     HOOK(FL_HOOK_CONTENTION_END), R_OPTIONAL);
	}
	/* one skeleton follows forks for the shared filter (tgid_filter.h) */
	if (kf->tp_fork && P && o->follow_fork && fl_tgid_filter_follower(o->tgids, "faultline"))
		n = plan_add(plan, n, PG(tp_fork), 0, R_OPTIONAL);
	/* no task-local storage: the tid-keyed hash is emptied at exit */
	if (!kf->task_storage && tier != FL_TIER_TRACEPOINT)
		n = plan_add(plan, n, PG(tp_exit), 0, R_CORE);

	fl_kvals_from_features(kf, &kv);
	/* per-VMA lock outcomes read from the handle_mm_fault exit (classify.h) */
	exit_hooks = kv.ll_infer ? HOOK(FL_HOOK_LOCK_VMA) : 0;
	if (tier == FL_TIER_FENTRY || tier == FL_TIER_KPROBE) {
		/* a task switched out mid-fault takes its state along */
		n = plan_add(plan, n, PG(tp_sched_switch), 0, R_CORE);
	}
	if (tier == FL_TIER_FENTRY) {
		/* the exit alone ends and classifies a fault; the entry only times the call */
		entry = o->time_hmf;
		if (kf->has_do_hmf) {
			if (entry)
				n = plan_add(plan, n, PG(fe_do_hmf), HOOK(FL_HOOK_DO_HMF), R_CORE);
			n = plan_add(plan, n, PG(fx_do_hmf), HOOK(FL_HOOK_DO_HMF), R_CORE);
		} else if (kf->has_hmf) {
			if (entry)
				n = plan_add(plan, n, guard ? PG(fe_hmf_pg) : PG(fe_hmf),
					     HOOK(FL_HOOK_HMF), R_CORE);
			n = plan_add(plan, n, guard ? PG(fx_hmf_pg) : PG(fx_hmf),
				     HOOK(FL_HOOK_HMF) | exit_hooks, R_CORE);
		}
		if (kf->has_spf_dufour) {
			n = plan_add(plan, n, PG(fe_spf), HOOK(FL_HOOK_DO_HMF), R_CORE);
			n = plan_add(plan, n, PG(fx_spf), HOOK(FL_HOOK_DO_HMF), R_CORE);
		}
	} else if (tier == FL_TIER_KPROBE) {
		/*
		 * The kretprobe has no arguments: a kprobe saves the flags
		 * where they matter and the mmap_lock events cannot tell them.
		 */
		entry = o->time_hmf || (kv.ll_kind != FL_LL_KIND_NONE && !lock_infer);
		if (kf->has_do_hmf) {
			n = plan_add(plan, n, PG(kp_do_hmf), HOOK(FL_HOOK_DO_HMF), R_CORE);
			n = plan_add(plan, n, PG(krp_do_hmf), HOOK(FL_HOOK_DO_HMF), R_CORE);
		} else if (kf->has_hmf) {
			if (entry)
				n = plan_add(plan, n, PG(kp_hmf), HOOK(FL_HOOK_HMF), R_CORE);
			n = plan_add(plan, n, PG(krp_hmf), HOOK(FL_HOOK_HMF) | exit_hooks, R_CORE);
		}
		if (kf->has_spf_dufour) {
			n = plan_add(plan, n, PG(kp_spf), HOOK(FL_HOOK_DO_HMF), R_CORE);
			n = plan_add(plan, n, PG(krp_spf), HOOK(FL_HOOK_DO_HMF), R_CORE);
		}
	}
#undef PG
	return n;
}

#define MAX_PLAN 32

/* Does the plan time or flag handle_mm_fault calls at their entry? (faultline.bpf.c hmf_entry) */
static bool plan_has_entry(struct faultline_bpf *skel, const struct prog_plan *plan, int n)
{
	const struct bpf_program *entry[] = {
		skel->progs.fe_hmf, skel->progs.fe_hmf_pg, skel->progs.fe_do_hmf,
		skel->progs.fe_spf,
		skel->progs.kp_hmf, skel->progs.kp_do_hmf, skel->progs.kp_spf,
	};

	for (int i = 0; i < n; i++)
		for (size_t j = 0; j < sizeof(entry) / sizeof(entry[0]); j++)
			if (plan[i].prog == entry[j])
				return true;
	return false;
}

void fl_bpf_hooks(unsigned int tier, const struct fl_kfeatures *kf,
		  const struct fl_bpf_opts *o, unsigned long long *live,
		  unsigned long long *absent)
{
	struct prog_plan plan[MAX_PLAN];
	int n = make_plan(NULL, tier, kf, o ? o : &(struct fl_bpf_opts){ 0 }, plan);

	*live = 0;
	for (int i = 0; i < n; i++)
		*live |= plan[i].hooks;
	*absent = 0;
	if (!kf->tp_pf_user)
		*absent |= HOOK(FL_HOOK_PF_USER);
	if (!kf->tp_pf_kernel)
		*absent |= HOOK(FL_HOOK_PF_KERNEL);
	if (!kf->has_hmf && !kf->has_do_hmf)
		*absent |= HOOK(FL_HOOK_HMF);
	if (!kf->has_do_hmf && !kf->has_spf_dufour)
		*absent |= HOOK(FL_HOOK_DO_HMF);
	if (!kf->has_lock_vma)
		*absent |= HOOK(FL_HOOK_LOCK_VMA);
	if (!kf->tp_mmap_lock)
		*absent |= HOOK(FL_HOOK_MMAP_START) | HOOK(FL_HOOK_MMAP_ACQUIRED) |
			   HOOK(FL_HOOK_MMAP_RELEASED);
	if (!kf->tp_contention)
		*absent |= HOOK(FL_HOOK_CONTENTION_BEGIN) | HOOK(FL_HOOK_CONTENTION_END);
}


/* ---- kretprobes with a large maxactive (tracefs kprobe_events) --------- */

/*
 * The perf kprobe PMU that libbpf uses gives kretprobes the kernel's default
 * maxactive (max(10, 2 * nr_cpus) with preemption): with more tasks asleep
 * in handle_mm_fault than that, returns are missed.  A kretprobe defined
 * through tracefs can ask for up to 4096 instances.
 */
#define FL_KRETPROBE_MAXACTIVE	4096

static const char *find_tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char p[128];

	for (unsigned int i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/kprobe_events", dirs[i]);
		if (!access(p, W_OK))
			return dirs[i];
	}
	return NULL;
}

static int write_kprobe_events(const char *tracefs, const char *line)
{
	char p[128];
	int fd, n;

	snprintf(p, sizeof(p), "%s/kprobe_events", tracefs);
	fd = open(p, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, line, strlen(line));
	close(fd);
	return n == (int)strlen(line) ? 0 : -1;
}

static void remove_kevents(struct fl_bpf *b)
{
	char line[96];

	for (unsigned int i = 0; i < b->nkevents; i++) {
		snprintf(line, sizeof(line), "-:faultline/%s\n", b->kevents[i]);
		write_kprobe_events(b->tracefs, line);
	}
	b->nkevents = 0;
}

/*
 * A collector killed with SIGKILL cannot remove its kprobe events: remove
 * those of faultline processes that no longer exist.
 */
static void remove_stale_kevents(const char *tracefs)
{
	char p[128], line[512], name[64], del[96];
	FILE *f;

	snprintf(p, sizeof(p), "%s/kprobe_events", tracefs);
	f = fopen(p, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *g = strstr(line, ":faultline/fl_");
		unsigned int pid, n;
		int len;

		if (!g || sscanf(g + 14, "%u_%u%n", &pid, &n, &len) != 2)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(name, sizeof(name), "fl_%u_%u", pid, n);
		snprintf(del, sizeof(del), "-:faultline/%s\n", name);
		write_kprobe_events(tracefs, del);
	}
	fclose(f);
}

static struct bpf_link *attach_kretprobe_tracefs(struct fl_bpf *b, struct bpf_program *prog,
						 const char *func)
{
	struct perf_event_attr attr = { 0 };
	char line[256], p[256], idbuf[32];
	struct bpf_link *link;
	unsigned long id;
	char *name;
	int fd, pfd, e;

	if (b->nkevents >= sizeof(b->kevents) / sizeof(b->kevents[0]))
		return errno = ENOSPC, NULL;
	if (!b->tracefs) {
		b->tracefs = find_tracefs();
		if (!b->tracefs)
			return errno = ENOENT, NULL;
		remove_stale_kevents(b->tracefs);
	}
	name = b->kevents[b->nkevents];
	snprintf(name, sizeof(b->kevents[0]), "fl_%d_%u", (int)getpid(), b->nkevents);
	snprintf(line, sizeof(line), "r%d:faultline/%s %s\n", FL_KRETPROBE_MAXACTIVE, name, func);
	if (write_kprobe_events(b->tracefs, line))
		return NULL;
	b->nkevents++;
	snprintf(p, sizeof(p), "%s/events/faultline/%s/id", b->tracefs, name);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	e = read(fd, idbuf, sizeof(idbuf) - 1);
	close(fd);
	if (e <= 0)
		return errno = EIO, NULL;
	idbuf[e] = '\0';
	errno = 0;
	id = strtoul(idbuf, NULL, 10);
	if (errno || !id)
		return errno = EIO, NULL;
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	pfd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return NULL;
	link = bpf_program__attach_perf_event(prog, pfd);
	if (!link) {
		e = errno;
		close(pfd);
		errno = e;
	}
	return link;	/* the link owns pfd */
}

/* A kretprobe program: tracefs with a large maxactive first, else libbpf's. */
static struct bpf_link *attach_prog(struct fl_bpf *b, struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);
	struct bpf_link *link;
	int e;

	if (strncmp(sec, "kretprobe/", 10))
		return bpf_program__attach(prog);
	link = attach_kretprobe_tracefs(b, prog, sec + 10);
	if (link)
		return link;
	e = errno;
	link = bpf_program__attach(prog);
	if (link)
		snprintf(b->notes + strlen(b->notes), sizeof(b->notes) - strlen(b->notes),
			 "%s: kernel default maxactive (tracefs kretprobe: %s); "
			 "missed returns show as events_missed\n", sec, strerror(e));
	return link;
}

/* ---- one tier: open, configure, load, attach -------------------------- */

int fl_bpf_tstore_hash(struct bpf_map *m)
{
	/* preallocated: tracing programs must not allocate map entries at run time */
	if (bpf_map__set_type(m, BPF_MAP_TYPE_HASH) || bpf_map__set_map_flags(m, 0) ||
	    bpf_map__set_max_entries(m, FL_TSTORE_HASH_MAX))
		return -1;
	return 0;
}

static int tier_possible(unsigned int tier, const struct fl_kfeatures *kf,
			 char *why, size_t len)
{
	if (!kf->tp_pf_user)
		return fl_fail(why, len, "the kernel has no exceptions:page_fault_user tracepoint in BTF");

	if (tier != FL_TIER_TRACEPOINT && !kf->has_hmf && !kf->has_do_hmf)
		return fl_fail(why, len, "no handle_mm_fault (or do_handle_mm_fault) in BTF");
	return 0;
}

static void destroy_skel(struct fl_bpf *b)
{
	faultline_bpf__destroy(b->skel);
	b->skel = NULL;
	remove_kevents(b);	/* after the perf events are closed */
}

/*
 * Attach the planned programs one by one: an optional tracepoint may fail
 * alone (noted, not measured); a core program failing fails the tier.
 * Sets b->hooks_live to the hooks all of whose programs are attached.
 */
static int attach_plan(struct fl_bpf *b, const struct prog_plan *plan, int n,
		       char *why, size_t len)
{
	struct bpf_object_skeleton *os = b->skel->skeleton;

	b->hooks_live = 0;
	for (int i = 0; i < n; i++) {
		struct bpf_link *link;
		int j;

		link = attach_prog(b, plan[i].prog);
		if (!link) {
			int e = errno;

			if (plan[i].role == R_CORE) {
				return fl_fail(why, len, "attaching %s failed: %s",
					       bpf_program__section_name(plan[i].prog), strerror(e));
			}
			snprintf(b->notes + strlen(b->notes), sizeof(b->notes) - strlen(b->notes),
				 "%s: attach failed (%s); not measured\n",
				 bpf_program__section_name(plan[i].prog), strerror(e));
			continue;
		}
		for (j = 0; j < os->prog_cnt; j++)
			if (*os->progs[j].prog == plan[i].prog) {
				*os->progs[j].link = link;
				break;
			}
		b->hooks_live |= plan[i].hooks;
	}
	/* a hook needs all of its programs (entry and exit) */
	for (int i = 0; i < n; i++) {
		bool attached = false;

		for (int j = 0; j < os->prog_cnt; j++)
			if (*os->progs[j].prog == plan[i].prog && *os->progs[j].link)
				attached = true;
		if (!attached)
			b->hooks_live &= ~plan[i].hooks;
	}
	return 0;
}

static int load_tier(struct fl_bpf *b, unsigned int tier, const struct fl_bpf_opts *o,
		     char *why, size_t len)
{
	struct prog_plan plan[MAX_PLAN];
	struct faultline_bpf *skel;
	struct bpf_program *p;
	int n, err;

	if (tier_possible(tier, &b->kf, why, len))
		return -1;
	last_warning[0] = '\0';
	skel = faultline_bpf__open();
	if (!skel)
		return fl_fail(why, len, "opening the BPF object: %s", strerror(errno));
	b->skel = skel;
	skel->rodata->filter_tgid = o->tgids != NULL;
	skel->rodata->time_hmf = o->time_hmf;
	skel->rodata->kp_lock_infer = kp_lock_infer(tier, &b->kf, o);
	FL_INTASK_SET(skel->rodata, b->kf.pc_layout);
	if (!b->kf.task_storage) {
		skel->rodata->task_btf = false;
		if (fl_bpf_tstore_hash(skel->maps.tstate)) {
			fl_fail(why, len, "cannot make the per-task state a hash");
			goto fail;
		}
	}
	skel->rodata->kvals.ll_infer = b->kv.ll_infer;
	skel->rodata->kvals.ll_kind = b->kv.ll_kind;
	skel->rodata->kvals.ll_flag = b->kv.ll_flag;
	skel->rodata->kvals.vm_fault_retry = b->kv.vm_fault_retry;
	skel->rodata->kvals.vm_fault_end = b->kv.vm_fault_end;
	if (fl_tgid_filter_use(o->tgids, skel->maps.fl_tgids, why, len))
		goto fail;

	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, false);
	n = make_plan(skel, tier, &b->kf, o, plan);
	for (int i = 0; i < n; i++)
		bpf_program__set_autoload(plan[i].prog, true);
	skel->rodata->hmf_entry = plan_has_entry(skel, plan, n);
	/*
	 * abort / retry reasons: the fexit has the VMA; a kretprobe has not,
	 * but where the kprobe tier loads its entry kprobe (preemptible
	 * kernels, --handle-mm-fault) that one keeps it for the kretprobe (kp_why)
	 */
	b->kv.ll_why = (tier == FL_TIER_FENTRY ||
			(tier == FL_TIER_KPROBE && skel->rodata->hmf_entry)) &&
		       b->kv.ll_kind == FL_LL_KIND_VMA_LOCK &&
		       b->kf.vma_lock_seq && b->kf.has_hmf && !b->kf.has_do_hmf;
	skel->rodata->kvals.ll_why = b->kv.ll_why;
	skel->rodata->kp_why = tier == FL_TIER_KPROBE && b->kv.ll_why;

	err = faultline_bpf__load(skel);
	if (err) {
		if (last_warning[0])
			fl_fail(why, len, "loading failed: %s (%.300s)", strerror(-err), last_warning);
		else
			fl_fail(why, len, "loading failed: %s", strerror(-err));
		goto fail;
	}
	/*
	 * Loaded and attached disarmed: the stats slot has no entry, so no
	 * program counts until fl_bpf_arm() (after every hook is attached and
	 * the collector's baselines are read: one window for every figure).
	 */
	skel->bss->slot = FL_BPF_SLOT_DISARMED;
	b->slot = 0;

	if (attach_plan(b, plan, n, why, len))
		goto fail;
	b->tier = tier;
	return 0;
fail:
	destroy_skel(b);	/* WHY says what failed */
	return -1;
}

const char *fl_tier_describe(unsigned int tier)
{
	switch (tier) {
	case FL_TIER_FENTRY: return "fentry (fentry/fexit + tracepoints)";
	case FL_TIER_KPROBE: return "kprobe (kprobe/kretprobe + tracepoints)";
	case FL_TIER_TRACEPOINT: return "tracepoint (tracepoints only)";
	}
	return "none";
}

struct fl_bpf *fl_bpf_start(const struct fl_bpf_opts *o, char *err, size_t errlen)
{
	unsigned int first = o->tier ? o->tier : FL_TIER_FENTRY;
	unsigned int last = o->exact ? first : FL_TIER_TRACEPOINT;
	struct fl_bpf *b;
	char why[512];
	int n;

	b = calloc(1, sizeof(*b));
	if (!b) {
		fl_fail(err, errlen, "out of memory");
		return NULL;
	}
	b->gp_outer = b->gp_inner = -1;
	if (o->btf) {
		fl_kfeatures_from_btf(&b->kf, o->btf);
	} else if (fl_kfeatures_read(&b->kf, err, errlen)) {
		free(b);
		return NULL;
	}
	fl_kvals_from_features(&b->kf, &b->kv);
	n = libbpf_num_possible_cpus();
	if (n <= 0) {
		fl_fail(err, errlen, "cannot count possible CPUs: %s", strerror(-n));
		free(b);
		return NULL;
	}
	b->nr_cpus = n;
	b->tgid = o->system_wide ? 0 : o->tgid;

	for (unsigned int t = first; t <= last; t++) {
		if (!load_tier(b, t, o, why, sizeof(why))) {
			fl_bpf_hooks(t, &b->kf, o, &(unsigned long long){0}, &b->hooks_absent);
			b->opts = *o;
			return b;
		}
		snprintf(b->notes + strlen(b->notes), sizeof(b->notes) - strlen(b->notes),
			 "%s tier refused: %s\n", fl_tier_name(t), why);
	}
	/* no tier loaded (the module may be used): phases then follows forks */
	fl_tgid_filter_unfollow(o->tgids, "faultline");
	fl_fail(err, errlen, "%s", b->notes);
	n = strlen(err);
	if (n && err[n - 1] == '\n')
		err[n - 1] = '\0';
	free(b);
	return NULL;
}

int fl_bpf_try_tier(unsigned int tier, const struct fl_kfeatures *kf, char *why, size_t len)
{
	struct fl_bpf b = { .kf = *kf };
	int ret;

	fl_kvals_from_features(kf, &b.kv);
	ret = load_tier(&b, tier, &(struct fl_bpf_opts){ .system_wide = true }, why, len);
	if (!ret)
		destroy_skel(&b);
	return ret;
}

unsigned int fl_bpf_tier(const struct fl_bpf *b)
{
	return b->tier;
}

const struct fl_kfeatures *fl_bpf_features(const struct fl_bpf *b)
{
	return &b->kf;
}

const char *fl_bpf_notes(const struct fl_bpf *b)
{
	return b->notes;
}

int fl_read_online_cpus(unsigned char *online, unsigned int nr)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	memset(online, 0, nr);
	return fl_cpulist_parse(buf, online, nr);
}

/*
 * Programs the kernel skipped because another BPF program was running on
 * that CPU (bpf_prog_info.recursion_misses, 5.12+): events we never saw.
 * Counted per program since attach, so stored as a snapshot tag.
 */
/* Figures this recording left out for their cost, and why (report reads the tags). */
static void tag_not_timed(struct fl_bpf *b, struct fl_snapshot *s)
{
	if (b->tier != FL_TIER_TRACEPOINT && !b->opts.time_hmf)
		fl_snapshot_set_tag(s, FL_TAG_HMF_OFF,
				    "not timed by default: an entry hook on every call costs about "
				    "as much as the rest of the tier (record --handle-mm-fault times it)");
	if (fl_mmap_lock_off(&b->kf, b->opts.mmap_lock))
		fl_snapshot_set_tag(s, FL_TAG_MMAP_LOCK_OFF, FL_MMAP_LOCK_OFF_WHY);
}

/* Is NAME one of PATS (fnmatch patterns separated by spaces)? */
static bool prog_in(const char *name, const char *pats)
{
	char pat[64];

	while (*pats) {
		size_t n = strcspn(pats, " ");

		if (n && n < sizeof(pat)) {
			memcpy(pat, pats, n);
			pat[n] = '\0';
			if (!fnmatch(pat, name, 0))
				return true;
		}
		pats += n;
		pats += strspn(pats, " ");
	}
	return false;
}

static const char *const lost_skels[] = { "faultline", "phases", "blame" };

int fl_bpf_tag_lost(struct bpf_object *obj, const char *skel, const struct fl_lost_fig *figs,
		    unsigned int nfigs, struct fl_snapshot *s)
{
	unsigned long long sum = 0, fig[16] = { 0 }, total = 0;
	bool loaded[16] = { false };
	struct bpf_program *p;
	char k[128], v[32];
	int rc = 0;

	if (nfigs > 16)
		nfigs = 16;
	bpf_object__for_each_program(p, obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(p);
		const char *name = bpf_program__name(p);

		memset(&info, 0, sizeof(info));
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		sum += info.recursion_misses;
		if (info.recursion_misses) {
			snprintf(k, sizeof(k), FL_TAG_BPF_PROG_MISSES_PREFIX "%s.%s", skel, name);
			snprintf(v, sizeof(v), "%llu", (unsigned long long)info.recursion_misses);
			rc |= fl_snapshot_replace_tag(s, k, v);
		}
		for (unsigned int i = 0; i < nfigs; i++)
			if (prog_in(name, figs[i].progs)) {
				fig[i] += info.recursion_misses;
				loaded[i] = true;
			}
	}
	for (unsigned int i = 0; i < nfigs; i++) {
		if (!loaded[i])
			continue;
		snprintf(k, sizeof(k), FL_TAG_BPF_LOST_PREFIX "%s", figs[i].figure);
		snprintf(v, sizeof(v), "%llu", fig[i]);
		rc |= fl_snapshot_replace_tag(s, k, v);
	}
	snprintf(k, sizeof(k), FL_TAG_BPF_SKEL_MISSES_PREFIX "%s", skel);
	snprintf(v, sizeof(v), "%llu", sum);
	rc |= fl_snapshot_replace_tag(s, k, v);
	/* the total: every skeleton of this recording tagged so far, each once */
	for (unsigned int i = 0; i < sizeof(lost_skels) / sizeof(lost_skels[0]); i++) {
		const char *t;

		snprintf(k, sizeof(k), FL_TAG_BPF_SKEL_MISSES_PREFIX "%s", lost_skels[i]);
		t = fl_snapshot_tag(s, k);
		if (t)
			total += strtoull(t, NULL, 10);
	}
	snprintf(v, sizeof(v), "%llu", total);
	rc |= fl_snapshot_replace_tag(s, FL_TAG_BPF_RECURSION_MISSES, v);
	return rc ? -1 : 0;
}

/*
 * What a skipped run of each faultline program loses.  A skipped
 * handle_mm_fault return loses the fault's end (its latency, faults_ended)
 * if it was the fault's last call, and the lockless outcome read from its
 * flags; a skipped page_fault_* run loses the fault's count.
 */
static const struct fl_lost_fig fl_figs[] = {
	{ "fault_starts", "tp_pf_user* tp_pf_kernel* tp_pf_kern_cnt" },
	{ "fault_ends", "fx_hmf fx_hmf_pg fx_do_hmf fx_spf krp_hmf krp_do_hmf krp_spf" },
	{ "lockless_outcomes", "fx_hmf fx_hmf_pg fx_do_hmf fx_spf krp_hmf krp_do_hmf krp_spf" },
	{ "hmf_entries", "fe_hmf fe_hmf_pg fe_do_hmf fe_spf kp_hmf kp_do_hmf kp_spf" },
	{ "mmap_lock", "tp_mmap_*" },
	{ "contention", "tp_contention_*" },
	{ "task_switches", "tp_sched_switch" },
	{ "forks", "tp_fork tp_exit" },
};

static void tag_recursion_misses(struct fl_bpf *b, struct fl_snapshot *s)
{
	/* no lockless kind: no outcome to lose */
	unsigned int n = sizeof(fl_figs) / sizeof(fl_figs[0]);
	struct fl_lost_fig figs[sizeof(fl_figs) / sizeof(fl_figs[0])];
	unsigned int k = 0;

	for (unsigned int i = 0; i < n; i++)
		if (strcmp(fl_figs[i].figure, "lockless_outcomes") ||
		    b->kv.ll_kind != FL_LL_KIND_NONE)
			figs[k++] = fl_figs[i];
	fl_bpf_tag_lost(b->skel->obj, "faultline", figs, k, s);
	/*
	 * Not a skipped run: fault states tp_sched_switch could not move for
	 * want of task storage (faultline.bpf.c states_refused), each one in
	 * events_missed.
	 */
	if (b->tier == FL_TIER_FENTRY || b->tier == FL_TIER_KPROBE) {
		char v[32];

		snprintf(v, sizeof(v), "%llu", (unsigned long long)b->skel->bss->states_refused);
		fl_snapshot_replace_tag(s, FL_TAG_BPF_LOST_TASK_STATES, v);
	}
	/* every tier: the lock-event programs are guarded in all three */
	fl_snapshot_replace_tag(s, FL_TAG_BPF_PREEMPT_GUARD, preempt_guard_why);
}

int fl_bpf_stats_enable(char *err, size_t errlen)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		return fl_fail(err, errlen, "turning on BPF run-time statistics: %s",
			       strerror(errno));
	return fd;
}

int fl_bpf_tag_runs(struct bpf_object *obj, struct fl_prog_runs prev[FL_MAX_PROGS],
		    struct fl_snapshot *s)
{
	struct bpf_program *p;
	unsigned int i = 0;

	bpf_object__for_each_program(p, obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(p);

		if (i == FL_MAX_PROGS)
			break;
		memset(&info, 0, sizeof(info));
		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len)) {
			if (fl_selfcost_set(s, bpf_program__name(p), info.run_cnt - prev[i].runs,
					    info.run_time_ns - prev[i].ns))
				return -1;
			prev[i].runs = info.run_cnt;
			prev[i].ns = info.run_time_ns;
		}
		i++;
	}
	return 0;
}

int fl_bpf_tag_own_runs(struct fl_bpf *b, struct fl_snapshot *s)
{
	return fl_bpf_tag_runs(b->skel->obj, b->runs, s);
}

/*
 * The kernel lays per-CPU values out round_up(value_size, 8) apart: with an
 * 8-byte multiple that is exactly an fl_cpu_stats array, so the map is read
 * straight into the snapshot, with no second per-CPU buffer (4 MB at 256 CPUs).
 */
_Static_assert(sizeof(struct fl_cpu_stats) % 8 == 0,
	       "per-CPU map values must be an fl_cpu_stats array");

/*
 * Zeros to clear a slot with: a read-only anonymous mapping, whose pages the
 * kernel reads as the shared zero page, so it costs no resident memory.
 */
static const void *zero_values(struct fl_bpf *b, size_t total)
{
	if (!b->zeros) {
		void *p = mmap(NULL, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return NULL;
		b->zeros = p;
		b->zeros_len = total;
	}
	return b->zeros;
}

/*
 * Interval rotation.  The programs pick their slot once per run
 * (cpu_stats(): `slot`), so after the flip a program that read the old
 * value may still be writing the old slot, however long it was preempted
 * (fentry/fexit run under rcu_read_lock() + migrate_disable(), preemptible
 * with PREEMPT_RCU).  Reading and zeroing it then would lose or smear those
 * events, so the flip is followed by an RCU grace period: every program that
 * could have seen the old slot has returned when it ends.  None of ours is
 * sleepable (that would need an RCU-tasks-trace grace period instead).
 *
 * The grace period is the one the kernel gives an update of an
 * array-of-maps from user space: maybe_wait_bpf_programs() in
 * kernel/bpf/syscall.c calls synchronize_rcu() "so that userspace, when we
 * return to it, knows that all programs that could be running use the new
 * map value" (commit 1ae80cf31938, 4.20; unconditional on every kernel we
 * target).  A private one-entry array-of-maps no program uses is updated
 * with the same inner map.  membarrier(MEMBARRIER_CMD_GLOBAL) also runs
 * synchronize_rcu(), but skips it when one CPU is online (a preempted fentry
 * program would then be missed) and is refused under nohz_full, and it
 * promises nothing about BPF programs.  Reading cumulative counters and
 * subtracting needs no grace period but cannot give an interval's min and
 * max latency.  Documentation/collector.rst, "Interval snapshots".
 */
static int wait_programs(struct fl_bpf *b, char *err, size_t errlen)
{
	unsigned int key = 0;

	if (b->gp_outer < 0) {
		LIBBPF_OPTS(bpf_map_create_opts, o);

		if (b->gp_inner < 0)
			b->gp_inner = bpf_map_create(BPF_MAP_TYPE_ARRAY, "fl_gp_inner",
						     sizeof(key), sizeof(key), 1, NULL);
		if (b->gp_inner < 0)
			return fl_fail(err, errlen, "interval snapshots need a grace period: "
				       "creating an array map: %s", strerror(errno));
		o.inner_map_fd = b->gp_inner;
		b->gp_outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "fl_gp",
					     sizeof(key), sizeof(key), 1, &o);
		if (b->gp_outer < 0)
			return fl_fail(err, errlen, "interval snapshots need a grace period: "
				       "creating an array-of-maps: %s", strerror(errno));
	}
	if (bpf_map_update_elem(b->gp_outer, &key, &b->gp_inner, 0))
		return fl_fail(err, errlen, "waiting for the BPF programs (array-of-maps "
			       "update): %s", strerror(errno));
	return 0;
}

void fl_bpf_arm(struct fl_bpf *b)
{
	b->skel->bss->slot = b->slot;
	__sync_synchronize();
}

/*
 * The last window's end, before its read: no fault starts from here, and
 * FL_BPF_DRAIN_US for faults counted before to reach handle_mm_fault
 * (microseconds), where the kernel's pgfault advances, and return from it,
 * where we count the call.  A filtered recording empties its tgid set: a
 * traced task's new fault and its call are not counted, a fault in flight
 * (its state exists) ends as usual -- exact, and no instruction added to
 * any program.  A system-wide one detaches its fault-entry programs; calls
 * of faults that start while the detach runs (tens of ms under TCG) are
 * counted without a start, like a GUP call, so there the call count can
 * run over faults by that much.  A fault held longer between its entry and
 * that call (an mmap_lock wait in the fallback path) can still be counted
 * without it.
 */
#define FL_BPF_DRAIN_US	1000
int fl_bpf_end(struct fl_bpf *b)
{
	struct bpf_link **l[] = { &b->skel->links.tp_pf_user, &b->skel->links.tp_pf_kernel,
				  &b->skel->links.tp_pf_user_pg, &b->skel->links.tp_pf_kernel_pg,
				  &b->skel->links.tp_pf_user_cnt, &b->skel->links.tp_pf_kern_cnt };

	if (b->opts.tgids) {
		fl_tgid_filter_clear(b->opts.tgids);
	} else {
		for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++) {
			bpf_link__destroy(*l[i]);
			*l[i] = NULL;
		}
	}
	usleep(FL_BPF_DRAIN_US);
	return 0;
}

int fl_bpf_read(struct fl_bpf *b, struct fl_snapshot *s, bool rotate,
		char *err, size_t errlen)
{
	size_t total = sizeof(struct fl_cpu_stats) * b->nr_cpus;
	unsigned int key = b->slot;
	struct utsname u;

	if (fl_snapshot_alloc_cpus(s, b->nr_cpus))
		return fl_fail(err, errlen, "out of memory");
	if (rotate) {
		/* new events go to the other slot; wait for programs in flight */
		b->skel->bss->slot = key ^ 1;
		__sync_synchronize();
		if (wait_programs(b, err, errlen))
			return -1;
	}
	if (bpf_map__lookup_elem(b->skel->maps.stats, &key, sizeof(key), s->cpus, total, 0))
		return fl_fail(err, errlen, "reading the per-CPU statistics: %s", strerror(errno));
	/*
	 * Without a handle_mm_fault hook the state machine sees every fault
	 * as "never reached handle_mm_fault": meaningless, and reported
	 * unavailable; do not store it as if it were measured.
	 */
	if (!(b->hooks_live & (HOOK(FL_HOOK_HMF) | HOOK(FL_HOOK_DO_HMF))))
		for (unsigned int c = 0; c < b->nr_cpus; c++)
			s->cpus[c].cnt[FL_C_FAULTS_UNHANDLED] = 0;
	if (rotate) {
		const void *zeros = zero_values(b, total);

		if (!zeros || bpf_map__update_elem(b->skel->maps.stats, &key, sizeof(key),
						   zeros, total, 0)) {
			return fl_fail(err, errlen, "clearing the per-CPU statistics: %s", strerror(errno));
		}
		b->slot = key ^ 1;
	}
	if (fl_read_online_cpus(s->cpu_online, b->nr_cpus)) {
		free(s->cpu_online);
		s->cpu_online = NULL;
	}
	s->hdr.magic = FL_SNAP_MAGIC;
	s->hdr.version = FL_SNAP_VERSION;
	s->hdr.header_size = sizeof(s->hdr);
	s->hdr.backend = FL_BACKEND_BPF;
	s->hdr.tier = b->tier;
	s->hdr.lockless_kind = b->kv.ll_kind;
	s->hdr.hooks_live = b->hooks_live;
	s->hdr.hooks_absent = b->hooks_absent;
	s->hdr.filter_tgid = b->tgid;
	s->hdr.flags = 0;
	if ((b->hooks_live & HOOK(FL_HOOK_MMAP_START)) && b->kf.mmap_memcg == 1)
		s->hdr.flags |= FL_SNAP_F_MMAP_MEMCG_PROTO;
	if (b->kv.ll_why && (b->hooks_live & HOOK(FL_HOOK_HMF)))
		s->hdr.flags |= FL_SNAP_F_LL_WHY;
	if (!uname(&u))
		snprintf(s->hdr.kernel_release, sizeof(s->hdr.kernel_release), "%s", u.release);
	tag_recursion_misses(b, s);
	tag_not_timed(b, s);
	return 0;
}

void fl_bpf_stop(struct fl_bpf *b)
{
	if (!b)
		return;
	destroy_skel(b);
	if (b->zeros)
		munmap(b->zeros, b->zeros_len);
	if (b->gp_outer >= 0)
		close(b->gp_outer);
	if (b->gp_inner >= 0)
		close(b->gp_inner);
	free(b);
}
