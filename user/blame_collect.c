// SPDX-License-Identifier: GPL-2.0
/*
 * Load, attach and read the holder-attribution skeleton (ebpf/blame.bpf.c).
 * API: user/blame_collect.h.  Design: Documentation/blame.rst.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <faultline/blame.h>
#include "blame.skel.h"
#include "blame_collect.h"
#include "blame_model.h"
#include "blame_rows.h"
#include "backend_bpf.h"
#include "errbuf.h"
#include "intask_set.h"
#include "kfeatures.h"
#include "ksyms.h"
#include "preempt_model.h"
#include "tgid_filter.h"

/* per-CPU site map: at most this much memory, whatever the CPU count */
#define FL_BLAME_SITES_BYTES	(64u << 20)
#define FL_BLAME_SITES_MIN	16
#define FL_BLAME_SITES_MAX	1024

struct fl_blame {
	struct blame_bpf *skel;
	bool kmod;		/* faultline.ko's hooks: its snapshot carries the rows */
	bool on;
	bool reclaim_on;
	unsigned int nr_cpus;
	char why[160];		/* !on: why */
	char reclaim_why[96];
	char fault_path[256];	/* blame.fault_path tag */
	char fb_why[192];	/* blame.fallbacks tag when not counted */
	bool fb_on;
	char writes[192];	/* blame.writes tag */
	char desc[640];
};

/* Functions a fault's mmap_lock wait is seen in (x86: the fault path). */
static const char *const fault_funcs[] = {
	"lock_mm_and_find_vma", "do_user_addr_fault", "exc_page_fault",
};

/* The user-mode fault's last frame, for lockless-path fallbacks (try_load). */
static void set_fault_entry(struct fl_blame *b, const struct fl_ksyms *k)
{
	long i = fl_ksyms_lookup(k, "asm_exc_page_fault");
	long j = fl_ksyms_lookup(k, "lock_mm_and_find_vma");
	unsigned long long end = i < 0 ? 0 : fl_ksyms_end(k, i);
	unsigned long long jend = j < 0 ? 0 : fl_ksyms_end(k, j);

	if (!end || !jend) {
		snprintf(b->fb_why, sizeof(b->fb_why),
			 "no asm_exc_page_fault or lock_mm_and_find_vma in kallsyms");
		return;
	}
	b->skel->rodata->fault_entry.start = k->s[i].addr;
	b->skel->rodata->fault_entry.end = end;
	b->skel->rodata->fallback_fn.start = k->s[j].addr;
	b->skel->rodata->fallback_fn.end = jend;
}

/* rodata fault_ranges from kallsyms; the tag says which were found. */
static void set_fault_ranges(struct fl_blame *b, const struct fl_ksyms *k, const char *kerr)
{
	unsigned int n = 0;
	size_t off = 0;

	if (!k) {
		snprintf(b->fb_why, sizeof(b->fb_why), "no kallsyms: %s", kerr);
		snprintf(b->fault_path, sizeof(b->fault_path),
			 "none (%s): every read wait of a traced task counts as a fault's", kerr);
		return;
	}
	for (size_t f = 0; f < sizeof(fault_funcs) / sizeof(fault_funcs[0]); f++) {
		long i = fl_ksyms_lookup(k, fault_funcs[f]);
		unsigned long long end;

		if (i < 0)
			continue;
		end = fl_ksyms_end(k, i);
		if (!end || n >= sizeof(b->skel->rodata->fault_ranges) /
				  sizeof(b->skel->rodata->fault_ranges[0]))
			continue;
		b->skel->rodata->fault_ranges[n].start = k->s[i].addr;
		b->skel->rodata->fault_ranges[n].end = end;
		n++;
		off += snprintf(b->fault_path + off, sizeof(b->fault_path) - off, "%s%s",
				off ? "+" : "", fault_funcs[f]);
		if (off >= sizeof(b->fault_path))
			off = sizeof(b->fault_path) - 1;
	}
	b->skel->rodata->nr_fault_ranges = n;
	set_fault_entry(b, k);
	if (!n)
		snprintf(b->fault_path, sizeof(b->fault_path),
			 "none (no fault-path function in kallsyms): every read wait counts");
}

static void describe(struct fl_blame *b)
{
	if (!b->on)
		snprintf(b->desc, sizeof(b->desc), "blame: unavailable (%s)", b->why);
	else if (b->kmod)
		snprintf(b->desc, sizeof(b->desc), "blame: %s", b->writes);
	else
		snprintf(b->desc, sizeof(b->desc),
			 "blame: tracepoint (write holds: %s; fault path: %s; reclaim: %s)",
			 b->writes, b->fault_path, b->reclaim_on ? "tracepoint" : "unavailable");
}

/* How the write holds are seen (blame.bpf.c): the programs of each way. */
enum bl_writes { BL_WRITES_TP, BL_WRITES_FENTRY, BL_WRITES_KPROBE };

static void autoload_writes(struct blame_bpf *s, const struct btf *btf, enum bl_writes how,
			    bool memcg)
{
	struct bpf_program *const rwsem[] = {
		s->progs.bl_dw, s->progs.bl_dw_x, s->progs.bl_dwk, s->progs.bl_dwk_x,
		s->progs.bl_dwt, s->progs.bl_dwt_x, s->progs.bl_uw, s->progs.bl_dg,
	};
	struct bpf_program *const kp[] = {
		s->progs.bl_kp_start, s->progs.bl_kp_acq, s->progs.bl_kp_rel,
	};
	bool nested = fl_btf_has_func(btf, "down_write_nested");	/* lockdep kernels */

	switch (how) {
	case BL_WRITES_FENTRY:
		for (size_t i = 0; i < sizeof(rwsem) / sizeof(rwsem[0]); i++)
			bpf_program__set_autoload(rwsem[i], true);
		bpf_program__set_autoload(s->progs.bl_dwn, nested);
		bpf_program__set_autoload(s->progs.bl_dwn_x, nested);
		break;
	case BL_WRITES_KPROBE:
		for (size_t i = 0; i < sizeof(kp) / sizeof(kp[0]); i++)
			bpf_program__set_autoload(kp[i], true);
		bpf_program__set_autoload(memcg ? s->progs.bl_inl_start_memcg : s->progs.bl_inl_start, true);
		bpf_program__set_autoload(memcg ? s->progs.bl_inl_acq_memcg : s->progs.bl_inl_acq, true);
		bpf_program__set_autoload(memcg ? s->progs.bl_inl_rel_memcg : s->progs.bl_inl_rel, true);
		break;
	case BL_WRITES_TP:
		bpf_program__set_autoload(memcg ? s->progs.bl_start_memcg : s->progs.bl_start, true);
		bpf_program__set_autoload(memcg ? s->progs.bl_acq_memcg : s->progs.bl_acq, true);
		bpf_program__set_autoload(memcg ? s->progs.bl_rel_memcg : s->progs.bl_rel, true);
		break;
	}
}

static bool has_funcs(const struct btf *btf, const char *const *fn, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!fl_btf_has_func(btf, fn[i]))
			return false;
	return true;
}

/*
 * Write holds by fentry/fexit on the rwsem where the mmap_lock tracepoints
 * are kept off (fl_mmap_lock_off(): they would tax every fault), whether or
 * not the recording asked for them; else, on a preemptible kernel, by
 * kprobes on the functions the tracepoints call (a tp_btf or fentry program
 * preempted in its body loses the next task's event: blame.bpf.c); else the
 * tracepoints.
 */
static enum bl_writes writes_by(const struct fl_kfeatures *kf, const struct btf *btf)
{
	static const char *const rwsem[] = {
		"down_write", "down_write_killable", "down_write_trylock", "up_write",
		"downgrade_write",
	};
	static const char *const trace_fn[] = {
		"__mmap_lock_do_trace_start_locking", "__mmap_lock_do_trace_acquire_returned",
		"__mmap_lock_do_trace_released",
	};

	if (fl_mmap_lock_off(kf, false) && has_funcs(btf, rwsem, sizeof(rwsem) / sizeof(rwsem[0])))
		return BL_WRITES_FENTRY;
	if (fl_kernel_preemptible() && kf->tp_mmap_lock &&
	    has_funcs(btf, trace_fn, sizeof(trace_fn) / sizeof(trace_fn[0])))
		return BL_WRITES_KPROBE;
	return BL_WRITES_TP;
}

static int try_load(struct fl_blame *b, const struct fl_blame_opts *o,
		    const struct fl_kfeatures *kf, const struct fl_ksyms *k, const char *kerr,
		    enum bl_writes how)
{
	struct blame_bpf *s;
	struct bpf_program *prog;
	bool memcg = kf->mmap_memcg == 1, reclaim;
	unsigned long long per = (unsigned long long)b->nr_cpus * sizeof(struct bl_site_stats);
	unsigned int entries;
	int err;

	s = b->skel = blame_bpf__open();
	if (!s)
		return fl_fail(b->why, sizeof(b->why), "cannot open the BPF object: %s",
			       strerror(errno));
	s->rodata->filter_tgid = o->tgids != NULL;
	FL_INTASK_SET(s->rodata, kf->pc_layout);
	if (fl_tgid_filter_use(o->tgids, s->maps.fl_tgids, b->why, sizeof(b->why)))
		return -1;
	set_fault_ranges(b, k, kerr);
	if (!kf->has_lock_vma)
		snprintf(b->fb_why, sizeof(b->fb_why),
			 "no per-VMA locks in this kernel (lock_vma_under_rcu, 6.4+)");
	b->fb_on = !b->fb_why[0];
	s->rodata->fallbacks_on = b->fb_on;
	/* kptr_ok (blame.bpf.c): x86 keeps la57 in /proc/cpuinfo only under 5-level paging */
	s->rodata->kaddr_bits = fl_cpu_flag(NULL, "la57") ? 56 : 47;
	entries = per ? (unsigned int)(FL_BLAME_SITES_BYTES / per) : FL_BLAME_SITES_MIN;
	if (entries < FL_BLAME_SITES_MIN)
		entries = FL_BLAME_SITES_MIN;
	if (entries > FL_BLAME_SITES_MAX)
		entries = FL_BLAME_SITES_MAX;
	bpf_map__set_max_entries(s->maps.sites, entries);

	reclaim = fl_btf_tp_nargs(o->btf, "mm_vmscan_direct_reclaim_begin") >= 0 &&
		  fl_btf_tp_nargs(o->btf, "mm_vmscan_direct_reclaim_end") >= 0;
	bpf_object__for_each_program(prog, s->obj)
		bpf_program__set_autoload(prog, false);
	autoload_writes(s, o->btf, how, memcg);
	bpf_program__set_autoload(s->progs.bl_kfault, b->fb_on);
	bpf_program__set_autoload(s->progs.bl_switch, true);
	bpf_program__set_autoload(s->progs.bl_cont_begin, true);
	bpf_program__set_autoload(s->progs.bl_cont_end, true);
	bpf_program__set_autoload(s->progs.bl_fork, fl_tgid_filter_follower(o->tgids, "blame"));
	bpf_program__set_autoload(s->progs.bl_dr_begin, reclaim);
	bpf_program__set_autoload(s->progs.bl_dr_end, reclaim);
	if (fl_btf_tp_nargs(o->btf, "mm_vmscan_memcg_reclaim_begin") >= 0 &&
	    fl_btf_tp_nargs(o->btf, "mm_vmscan_memcg_reclaim_end") >= 0) {
		bpf_program__set_autoload(s->progs.bl_mr_begin, reclaim);
		bpf_program__set_autoload(s->progs.bl_mr_end, reclaim);
	}
	err = blame_bpf__load(s);
	if (err)
		return fl_fail(b->why, sizeof(b->why),
			       "programs refused by this kernel (load: %s; needs tp_btf, task "
			       "storage and bpf_task_pt_regs, 5.15+)", strerror(-err));
	err = blame_bpf__attach(s);
	if (err)
		return fl_fail(b->why, sizeof(b->why), "attach: %s", strerror(-err));
	b->reclaim_on = reclaim;
	if (!reclaim)
		snprintf(b->reclaim_why, sizeof(b->reclaim_why),
			 "no vmscan:mm_vmscan_direct_reclaim_begin/end tracepoints");
	return 0;
}

/*
 * Load and attach, write holds as writes_by() chooses; where its fentry or
 * kprobes are refused, the tracepoints.
 */
static void load(struct fl_blame *b, const struct fl_blame_opts *o,
		 const struct fl_kfeatures *kf, const struct fl_ksyms *k, const char *kerr)
{
	static const char *const name[] = {
		[BL_WRITES_TP] = "tracepoint",
		[BL_WRITES_FENTRY] = "fentry (rwsem write side)",
		[BL_WRITES_KPROBE] = "kprobe (mmap_lock trace functions: preemptible kernel)",
	};
	enum bl_writes how = writes_by(kf, o->btf);

	if (how != BL_WRITES_TP && try_load(b, o, kf, k, kerr, how)) {
		/* refused (no trampolines, no kprobes here): the tracepoints */
		blame_bpf__destroy(b->skel);
		b->skel = NULL;
		snprintf(b->writes, sizeof(b->writes), "tracepoint (%s refused: %.120s)",
			 how == BL_WRITES_FENTRY ? "fentry on the rwsem" : "kprobes", b->why);
		b->why[0] = 0;
	} else {
		snprintf(b->writes, sizeof(b->writes), "%s", name[how]);
	}
	if (b->skel) {
		b->on = true;
	} else if (try_load(b, o, kf, k, kerr, BL_WRITES_TP)) {
		blame_bpf__destroy(b->skel);
		b->skel = NULL;
		fl_tgid_filter_unfollow(o->tgids, "blame");
	} else {
		b->on = true;
	}
}

struct fl_blame *fl_blame_start(const struct fl_blame_opts *o, char *err, size_t errlen)
{
	struct fl_kfeatures kf;
	struct fl_blame *b;
	const struct fl_ksyms *k;
	char kerr[160] = "";
	int n;

	if (!o) {
		fl_fail(err, errlen, "blame: no options");
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		fl_fail(err, errlen, "out of memory");
		return NULL;
	}
	n = libbpf_num_possible_cpus();
	b->nr_cpus = n > 0 ? (unsigned int)n : 0;
	if (!o->btf) {
		snprintf(b->why, sizeof(b->why), "no kernel BTF");
		describe(b);
		return b;
	}
	fl_kfeatures_from_btf(&kf, o->btf);
	if (!kf.tp_mmap_lock || kf.mmap_memcg < 0) {
		snprintf(b->why, sizeof(b->why), "no mmap_lock tracepoints");
		describe(b);
		return b;
	}
	if (!kf.tp_contention) {
		snprintf(b->why, sizeof(b->why), "no lock:contention tracepoints (5.19+)");
		describe(b);
		return b;
	}
	if (!kf.task_storage) {
		snprintf(b->why, sizeof(b->why), "no BPF task storage (5.11+)");
		describe(b);
		return b;
	}
	k = fl_ksyms_get(kerr, sizeof(kerr));
	load(b, o, &kf, k, kerr);
	describe(b);
	return b;
}

struct fl_blame *fl_blame_start_kmod(const char *why, char *err, size_t errlen)
{
	struct fl_blame *b = calloc(1, sizeof(*b));

	if (!b) {
		fl_fail(err, errlen, "out of memory");
		return NULL;
	}
	b->kmod = true;
	b->on = !why;
	if (why)
		snprintf(b->why, sizeof(b->why), "faultline.ko: %s", why);
	snprintf(b->writes, sizeof(b->writes), "faultline.ko (mmap_lock tracepoints)");
	snprintf(b->fault_path, sizeof(b->fault_path),
		 "faultline.ko: a fault in flight (exceptions:page_fault_user/kernel to "
		 "handle_mm_fault's return)");
	snprintf(b->fb_why, sizeof(b->fb_why), "not counted by faultline.ko");
	describe(b);
	return b;
}

const char *fl_blame_describe(const struct fl_blame *b)
{
	return b->desc;
}

void fl_blame_stop(struct fl_blame *b)
{
	if (!b)
		return;
	blame_bpf__destroy(b->skel);
	free(b);
}

/* ---- read ---------------------------------------------------------------- */

/* The row's frames from its stack id, tracing frames dropped, symbolised. */
static void row_frames(struct fl_blame_row *r, int stacks_fd, __u32 stackid,
		       const struct fl_ksyms *k)
{
	__u64 ips[BL_STACK_DEPTH] = {0};
	unsigned int n = 0;

	r->nframes = 0;
	if (stackid == (__u32)-1 || bpf_map_lookup_elem(stacks_fd, &stackid, ips))
		return;
	for (unsigned int i = 0; i < BL_STACK_DEPTH && n < FL_BLAME_FRAMES && ips[i]; i++) {
		long idx = k ? fl_ksyms_find(k, ips[i]) : -1;
		char sym[FL_SYM_LEN];

		/* outside core-kernel text: a BPF program or trampoline, a module */
		if (k && (ips[i] < k->stext || ips[i] >= k->etext))
			continue;
		if (idx >= 0)
			snprintf(sym, sizeof(sym), "%.*s", (int)fl_ksym_base_len(k->s[idx].name),
				 k->s[idx].name);
		else
			snprintf(sym, sizeof(sym), "0x%llx", (unsigned long long)ips[i]);
		if (fl_blame_frame_skipped(sym))
			continue;
		memcpy(r->frames[n++], sym, FL_SYM_LEN);
	}
	r->nframes = n;
}

/* Every site, all CPUs summed. */
static int read_rows(struct fl_blame *b, struct fl_snapshot *s, fl_u64 *nsites,
		     char *err, size_t errlen)
{
	int fd = bpf_map__fd(b->skel->maps.sites);
	int sfd = bpf_map__fd(b->skel->maps.stacks);
	struct bl_site_key key, next, *kp = NULL;
	struct bl_site_stats *vals;
	struct fl_blame_rows rs = { 0 };
	struct fl_blame_row *one;
	const struct fl_ksyms *k;
	char kerr[160];
	int ret = 0;

	vals = calloc(b->nr_cpus, sizeof(*vals));
	one = calloc(1, sizeof(*one));
	if (!vals || !one) {
		free(vals);
		free(one);
		return fl_fail(err, errlen, "out of memory");
	}
	k = fl_ksyms_get(kerr, sizeof(kerr));
	*nsites = 0;
	while (bpf_map_get_next_key(fd, kp, &next) == 0) {
		fl_u64 last = 0;

		key = next;
		kp = &key;
		if (bpf_map_lookup_elem(fd, &key, vals))
			continue;
		(*nsites)++;
		/* the row's identity: syscall, latest holder, frames */
		memset(one, 0, sizeof(*one));
		one->sysnr = key.sysnr;
		for (unsigned int c = 0; c < b->nr_cpus; c++)
			if (vals[c].last_ns > last) {
				last = vals[c].last_ns;
				one->tid = vals[c].tid;
				memcpy(one->comm, vals[c].comm, BL_COMM_LEN);
			}
		one->comm[BL_COMM_LEN - 1] = '\0';
		row_frames(one, sfd, key.stackid, k);
		one->kind = fl_blame_kind(one->sysnr, (const char (*)[FL_SYM_LEN])one->frames,
					  one->nframes);
		for (unsigned int c = 0; c < b->nr_cpus; c++)
			fl_blame_row_add_site(one, &vals[c]);
		if (fl_blame_rows_add(&rs, one)) {
			ret = fl_fail(err, errlen, "out of memory");
			break;
		}
	}
	if (!ret)
		ret = fl_blame_rows_put(&rs, s, err, errlen);
	free(rs.v);
	free(one);
	free(vals);
	return ret;
}

/* faultline.ko's rows and total, from its snapshot (blame_rows.c). */
static int read_kmod(struct fl_blame *b, struct fl_snapshot *s, struct fl_blame_total *t,
		     char *err, size_t errlen)
{
	int rc = fl_blame_kmod_rows(s, t, err, errlen);

	if (rc < 0)
		return -1;
	if (rc > 0) {
		b->on = false;
		snprintf(b->why, sizeof(b->why), "faultline.ko: its snapshot has no blame rows "
			 "(not armed: the mmap_lock or lock:contention hooks are not live)");
		return 0;
	}
	if (t->kmod & FL_BLAME_KMOD_RWSEM)
		snprintf(b->writes, sizeof(b->writes), "faultline.ko (kprobes on the rwsem write side)");
	b->reclaim_on = (t->kmod & FL_BLAME_KMOD_RECLAIM) == FL_BLAME_KMOD_RECLAIM;
	if (!b->reclaim_on)
		snprintf(b->reclaim_why, sizeof(b->reclaim_why),
			 "faultline.ko: no vmscan:mm_vmscan_direct_reclaim_begin/end tracepoints");
	return 0;
}

static int read_total(struct fl_blame *b, struct fl_snapshot *s, fl_u64 nsites,
		      struct fl_blame_total *t, char *err, size_t errlen)
{
	struct bl_totals *pc = calloc(b->nr_cpus, sizeof(*pc));
	__u32 key = 0;

	memset(t, 0, sizeof(*t));
	if (!pc)
		return fl_fail(err, errlen, "out of memory");
	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.totals), &key, pc)) {
		free(pc);
		return fl_fail(err, errlen, "blame: read totals: %s", strerror(errno));
	}
	for (unsigned int c = 0; c < b->nr_cpus; c++) {
		t->waits_blamed += pc[c].waits_blamed;
		t->fallbacks += pc[c].fallbacks;
		t->fallbacks_free += pc[c].fallbacks_free;
		for (unsigned int i = 0; i < BL_M_NR; i++)
			t->misc[i] += pc[c].misc[i];
		fl_hist_merge(&t->wait_all, &pc[c].wait_all);
	}
	free(pc);
	t->sites = nsites;
	t->fb_seen = b->fb_on ? FL_BLAME_FB_ON : FL_BLAME_FB_NONE;
	if (fl_snapshot_add_section(s, FL_SEC_BLAME_TOTAL, 1, t, sizeof(*t)))
		return fl_fail(err, errlen, "out of memory");
	return 0;
}

/*
 * What the blame skeleton's skipped runs lose (fl_bpf_tag_lost): an
 * mmap_lock hold's start, acquisition or release (write holds: a
 * tracepoint run lost may be a read's), a fault's wait, a reclaim span.
 */
static const struct fl_lost_fig bl_lost_figs[] = {
	{ "write_holds", "bl_start* bl_acq* bl_rel* bl_kp_* bl_dw* bl_uw bl_dg" },
	{ "mmap_lock_inlined", "bl_inl_*" },
	{ "blame_waits", "bl_cont_* bl_kfault" },
	{ "blame_reclaim", "bl_dr_* bl_mr_*" },
	{ "blame_switches", "bl_switch" },
};

int fl_blame_read(struct fl_blame *b, struct fl_snapshot *s, char *err, size_t errlen)
{
	struct fl_blame_total *t = NULL;
	char buf[512];
	fl_u64 nsites = 0;
	int rc = 0;

	t = calloc(1, sizeof(*t));
	if (!t)
		return fl_fail(err, errlen, "out of memory");
	if (b->kmod && b->on && read_kmod(b, s, t, err, errlen)) {
		free(t);
		return -1;
	}
	if (!b->kmod || !b->on)
		fl_blame_drop_sections(s);
	if (!b->on) {
		free(t);
		snprintf(buf, sizeof(buf), "unavailable (%s)", b->why);
		if (fl_snapshot_set_tag(s, FL_TAG_BLAME, buf))
			return fl_fail(err, errlen, "blame: cannot set snapshot tags");
		return 0;
	}
	if (!b->kmod && (read_rows(b, s, &nsites, err, errlen) ||
			 read_total(b, s, nsites, t, err, errlen))) {
		free(t);
		return -1;
	}
	rc |= fl_snapshot_set_tag(s, FL_TAG_BLAME, b->kmod ? "faultline.ko" : "tracepoint");
	rc |= fl_snapshot_set_tag(s, FL_TAG_BLAME_FAULT_PATH, b->fault_path);
	rc |= fl_snapshot_set_tag(s, FL_TAG_BLAME_WRITES, b->writes);
	if (b->fb_on)
		rc |= fl_snapshot_set_tag(s, FL_TAG_BLAME_FALLBACKS, "tracepoint");
	else {
		snprintf(buf, sizeof(buf), "unavailable (%s)", b->fb_why);
		rc |= fl_snapshot_set_tag(s, FL_TAG_BLAME_FALLBACKS, buf);
	}
	if (b->reclaim_on)
		rc |= fl_snapshot_set_tag(s, FL_TAG_BLAME_RECLAIM,
					  b->kmod ? "tracepoint (faultline.ko)" : "tracepoint");
	else {
		snprintf(buf, sizeof(buf), "unavailable (%s)", b->reclaim_why);
		rc |= fl_snapshot_set_tag(s, FL_TAG_BLAME_RECLAIM, buf);
	}
	snprintf(buf, sizeof(buf),
		 "sites_full:%llu holders_full:%llu stack_fail:%llu nostate:%llu nested:%llu "
		 "nofault:%llu self:%llu",
		 t->misc[BL_M_SITES_FULL], t->misc[BL_M_HOLDERS_FULL], t->misc[BL_M_STACK_FAIL],
		 t->misc[BL_M_NOSTATE], t->misc[BL_M_NESTED], t->misc[BL_M_NOFAULT],
		 t->misc[BL_M_SELF]);
	rc |= fl_snapshot_set_tag(s, FL_TAG_BLAME_EVENTS, buf);
	if (!b->kmod && b->skel)
		rc |= fl_bpf_tag_lost(b->skel->obj, "blame", bl_lost_figs,
				      sizeof(bl_lost_figs) / sizeof(bl_lost_figs[0]), s);
	free(t);
	return rc ? fl_fail(err, errlen, "blame: cannot set snapshot tags") : 0;
}
