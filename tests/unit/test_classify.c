// SPDX-License-Identifier: GPL-2.0
/*
 * The fault state machine (include/faultline/classify.h) fed with the event
 * sequences each kind of kernel produces, with the kernel values chosen the
 * way the collector chooses them (user/kfeatures.c), and kernel detection
 * from synthetic BTF (user/kfeatures_btf.c): per-VMA locks (6.4+), SPF by
 * Lespinasse (do_handle_mm_fault, 0x400) and by Dufour
 * (__handle_speculative_fault, 0x200), and kernels with no lockless path.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/btf.h>

#include <faultline/classify.h>
#include "kfeatures.h"

#define RETRY		0x400u		/* VM_FAULT_RETRY */
#define COMPLETED	0x4000u		/* VM_FAULT_COMPLETED */
#define F_TRIED		(1u << 5)
#define F_USER		(1u << 6)
#define F_UNSHARE	(1u << 10)	/* mainline's 0x400: not SPECULATIVE there */
#define F_VMA_LOCK	(1u << 12)

struct sim {
	struct fl_fault_state st;
	struct fl_cpu_stats cs;
	struct fl_kvals kv;
	fl_u64 now;
	fl_u64 lat[16];		/* latencies returned, in order */
	unsigned int nlat;
	fl_u32 need;		/* what the last hmf return asked to read (fl_ll_need) */
};

static struct fl_kfeatures feat(void)
{
	struct fl_kfeatures f;

	memset(&f, 0, sizeof(f));
	f.btf = true;
	f.has_hmf = true;
	f.tp_pf_user = f.tp_pf_kernel = true;
	f.mmap_memcg = -1;
	f.flag_vma_lock = f.flag_speculative = f.vm_fault_retry = -1;
	return f;
}

static void sim_init(struct sim *s, const struct fl_kfeatures *f)
{
	memset(s, 0, sizeof(*s));
	fl_kvals_from_features(f, &s->kv);
	s->now = 1000;
}

static void ev_start(struct sim *s, int kernel)
{
	s->now += 10;
	fl_ev_fault_start(&s->st, &s->cs, s->now, kernel);
}

static void ev_lock_vma(struct sim *s, int got)
{
	s->now += 100;
	fl_ev_lock_vma(&s->st, &s->cs, got);
}

static void ev_hmf(struct sim *s, fl_u32 flags, fl_u32 ret)
{
	fl_u64 lat;

	s->now += 1000;
	s->need = 0;
	lat = fl_ev_hmf_exit(&s->st, &s->cs, &s->kv, flags, ret, s->now, &s->need);
	if (lat && s->nlat < 16)
		s->lat[s->nlat++] = lat;
}

/* ---- kernel values from kernel facts --------------------------------- */

static void test_kvals_vma_lock(void **state)
{
	struct fl_kfeatures f = feat();
	struct fl_kvals kv;

	(void)state;
	f.has_lock_vma = true;
	f.flag_vma_lock = 0x1000;
	f.vm_fault_retry = 0x400;
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_kind, FL_LL_KIND_VMA_LOCK);
	assert_int_equal(kv.ll_flag, 0x1000);
	assert_int_equal(kv.vm_fault_retry, 0x400);
	/* BTF value wins over the default */
	f.flag_vma_lock = 0x2000;
	f.vm_fault_retry = 0x800;
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_flag, 0x2000);
	assert_int_equal(kv.vm_fault_retry, 0x800);
	/* no enumerator: mainline default */
	f.flag_vma_lock = -1;
	f.vm_fault_retry = -1;
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_flag, FL_DEF_FAULT_FLAG_VMA_LOCK);
	assert_int_equal(kv.vm_fault_retry, FL_DEF_VM_FAULT_RETRY);
}

static void test_kvals_spf(void **state)
{
	struct fl_kfeatures f = feat();
	struct fl_kvals kv;

	(void)state;
	/* Lespinasse: handle_mm_fault is an inline wrapper of do_handle_mm_fault */
	f.has_hmf = false;
	f.has_do_hmf = true;
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_kind, FL_LL_KIND_SPF);
	assert_int_equal(kv.ll_flag, 0x400);
	/* Dufour */
	f = feat();
	f.has_spf_dufour = true;
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_kind, FL_LL_KIND_SPF);
	assert_int_equal(kv.ll_flag, 0x200);
	/* an SPF kernel that exposes the flag in BTF: its value is used */
	f.flag_speculative = 0x800;
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_flag, 0x800);
	/* SPF entry point and per-VMA locks both present: SPF is what is hooked */
	f = feat();
	f.has_do_hmf = true;
	f.has_lock_vma = true;
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_kind, FL_LL_KIND_SPF);
	assert_int_equal(kv.ll_flag, 0x400);
}

/* fl_mmap_lock_off(): the one rule for keeping the mmap_lock tracepoints off. */
static void test_mmap_lock_off(void **state)
{
	struct fl_kfeatures f = feat();

	(void)state;
	f.tp_mmap_lock = true;
	f.mmap_memcg = 1;		/* 6.1: memcg_path built per event, no lockless path */
	assert_true(fl_mmap_lock_off(&f, false));
	assert_false(fl_mmap_lock_off(&f, true));	/* record --mmap-lock */
	f.has_lock_vma = true;		/* 6.4-6.13: per-VMA locks, faults mostly skip it */
	assert_false(fl_mmap_lock_off(&f, false));
	f = feat();
	f.has_do_hmf = true;		/* an SPF kernel is a lockless path too */
	f.tp_mmap_lock = true;
	f.mmap_memcg = 1;
	assert_false(fl_mmap_lock_off(&f, false));
	f = feat();
	f.tp_mmap_lock = true;
	f.mmap_memcg = 0;		/* 6.14+: no memcg_path */
	assert_false(fl_mmap_lock_off(&f, false));
	f = feat();			/* 5.10: no mmap_lock tracepoints */
	assert_false(fl_mmap_lock_off(&f, false));
}

/* abi.h's fl_mmap_lock_keep_off(): the rule itself, as the module asks it. */
static void test_mmap_lock_keep_off(void **state)
{
	static const struct {
		int memcg, kind, asked, off;
	} t[] = {
		{ 1, FL_LL_KIND_NONE, 0, 1 },		/* 6.1 */
		{ 1, FL_LL_KIND_NONE, 1, 0 },		/* 6.1, mmap_lock on */
		{ 1, FL_LL_KIND_VMA_LOCK, 0, 0 },	/* 6.4-6.13 */
		{ 1, FL_LL_KIND_SPF, 0, 0 },		/* an SPF patchset */
		{ 1, FL_LL_KIND_UNKNOWN, 0, 0 },	/* a path we cannot hook */
		{ 0, FL_LL_KIND_NONE, 0, 0 },		/* no memcg_path */
		{ 0, FL_LL_KIND_VMA_LOCK, 1, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_int_equal(!!fl_mmap_lock_keep_off(t[i].memcg, t[i].kind, t[i].asked),
				 t[i].off);
}

static void test_kvals_none(void **state)
{
	struct fl_kfeatures f = feat();
	struct fl_kvals kv;

	(void)state;
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_kind, FL_LL_KIND_NONE);
	assert_int_equal(kv.ll_flag, 0);
	/* the flag without a hookable function: unknown, not "none" */
	f.flag_vma_lock = 0x1000;
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_kind, FL_LL_KIND_UNKNOWN);
	assert_int_equal(kv.ll_flag, 0);
}

/* ---- per-VMA-lock kernels (6.4+) -------------------------------------- */

static struct fl_kfeatures vma_kernel(void)
{
	struct fl_kfeatures f = feat();

	f.has_lock_vma = true;
	f.flag_vma_lock = 0x1000;
	f.vm_fault_retry = 0x400;
	return f;
}

static void test_vma_success(void **state)
{
	struct fl_kfeatures f = vma_kernel();
	struct sim s;

	(void)state;
	sim_init(&s, &f);
	ev_start(&s, 0);
	ev_lock_vma(&s, 1);
	ev_hmf(&s, F_USER | F_VMA_LOCK, 0);
	assert_int_equal(s.nlat, 1);
	assert_int_equal(s.lat[0], 1100);	/* start -> hmf return */
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_USER], 1);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_ENDED], 1);
	assert_int_equal(s.cs.cnt[FL_C_HMF_CALLS], 1);
	assert_int_equal(s.cs.ll[FL_LL_ATTEMPTED], 1);
	assert_int_equal(s.cs.ll[FL_LL_SUCCEEDED], 1);
	assert_int_equal(s.cs.ll[FL_LL_ABORTED], 0);
	assert_int_equal(s.cs.ll[FL_LL_RETRIED], 0);
	assert_int_equal(s.cs.ll[FL_LL_NOT_ATTEMPTED], 0);
	assert_int_equal(s.st.start_ns, 0);	/* nothing in flight */
}

static void test_vma_completed_is_end(void **state)
{
	struct fl_kfeatures f = vma_kernel();
	struct sim s;

	(void)state;
	sim_init(&s, &f);
	ev_start(&s, 0);
	ev_lock_vma(&s, 1);
	ev_hmf(&s, F_USER | F_VMA_LOCK, COMPLETED);
	assert_int_equal(s.nlat, 1);
	assert_int_equal(s.cs.ll[FL_LL_SUCCEEDED], 1);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_ENDED], 1);
}

static void test_vma_abort(void **state)
{
	struct fl_kfeatures f = vma_kernel();
	struct sim s;

	(void)state;
	sim_init(&s, &f);
	/* lock_vma_under_rcu returned NULL: fall back to mmap_lock */
	ev_start(&s, 0);
	ev_lock_vma(&s, 0);
	ev_hmf(&s, F_USER, 0);
	assert_int_equal(s.nlat, 1);
	assert_int_equal(s.lat[0], 1100);
	assert_int_equal(s.cs.ll[FL_LL_ATTEMPTED], 1);
	assert_int_equal(s.cs.ll[FL_LL_ABORTED], 1);
	assert_int_equal(s.cs.ll[FL_LL_SUCCEEDED], 0);
	assert_int_equal(s.cs.ll[FL_LL_NOT_ATTEMPTED], 0);	/* it was attempted */
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_ENDED], 1);
}

static void test_vma_retry(void **state)
{
	struct fl_kfeatures f = vma_kernel();
	struct sim s;

	(void)state;
	sim_init(&s, &f);
	/* handled under the VMA lock, asked for RETRY, redone under mmap_lock */
	ev_start(&s, 0);
	ev_lock_vma(&s, 1);
	ev_hmf(&s, F_USER | F_VMA_LOCK, RETRY);
	assert_int_equal(s.nlat, 0);
	assert_int_not_equal(s.st.start_ns, 0);		/* still in flight */
	ev_hmf(&s, F_USER, 0);
	assert_int_equal(s.nlat, 1);
	assert_int_equal(s.lat[0], 2100);		/* both calls */
	assert_int_equal(s.cs.cnt[FL_C_HMF_CALLS], 2);
	assert_int_equal(s.cs.ll[FL_LL_ATTEMPTED], 1);
	assert_int_equal(s.cs.ll[FL_LL_RETRIED], 1);
	assert_int_equal(s.cs.ll[FL_LL_SUCCEEDED], 0);
	assert_int_equal(s.cs.ll[FL_LL_ABORTED], 0);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_ENDED], 1);
}

static void test_vma_kernel_mode_and_mmap_retry(void **state)
{
	struct fl_kfeatures f = vma_kernel();
	struct sim s;

	(void)state;
	sim_init(&s, &f);
	/* kernel-mode fault on a user address: no lockless attempt */
	ev_start(&s, 1);
	ev_hmf(&s, 0, RETRY);		/* e.g. page lock: retry under mmap_lock */
	ev_hmf(&s, F_TRIED, 0);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_KERNEL], 1);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_USER], 0);
	assert_int_equal(s.cs.ll[FL_LL_MMAP_RETRY], 1);
	assert_int_equal(s.cs.ll[FL_LL_NOT_ATTEMPTED], 1);
	assert_int_equal(s.cs.ll[FL_LL_ATTEMPTED], 0);
	assert_int_equal(s.nlat, 1);
	assert_int_equal(s.lat[0], 2000);	/* both calls */
}

/*
 * Without the lock_vma_under_rcu hook (kv.ll_infer), the same faults give
 * the same counts and latencies, the lookup's outcome read from the flags of
 * the first handle_mm_fault call; only a fault that never reaches
 * handle_mm_fault is no longer an attempt.
 */
static void run_seq(struct sim *s, int seq, int hooked)
{
	switch (seq) {
	case 0:	/* success */
		ev_start(s, 0);
		if (hooked)
			ev_lock_vma(s, 1);
		else
			s->now += 100;
		ev_hmf(s, F_USER | F_VMA_LOCK, 0);
		break;
	case 1:	/* lookup failed: mmap_lock */
		ev_start(s, 0);
		if (hooked)
			ev_lock_vma(s, 0);
		else
			s->now += 100;
		ev_hmf(s, F_USER, 0);
		break;
	case 2:	/* VMA-locked call asked for RETRY, redone under mmap_lock, which retried too */
		ev_start(s, 0);
		if (hooked)
			ev_lock_vma(s, 1);
		else
			s->now += 100;
		ev_hmf(s, F_USER | F_VMA_LOCK, RETRY);
		ev_hmf(s, F_USER, RETRY);
		ev_hmf(s, F_USER | F_TRIED, 0);
		break;
	case 3:	/* kernel-mode fault on a user address: never attempted */
		ev_start(s, 1);
		ev_hmf(s, 0, 0);
		break;
	case 4:	/* GUP between faults: a call, no fault */
		s->now += 10;
		fl_ev_hmf_exit(&(struct fl_fault_state){ 0 }, &s->cs, &s->kv, F_USER, 0, s->now,
			       &s->need);
		break;
	}
}

static void test_vma_inferred_equals_hooked(void **state)
{
	struct fl_kfeatures f = vma_kernel();
	struct sim hooked, inferred;
	static const int seqs[] = { 0, 1, 0, 2, 3, 4, 1, 0, 2, 3, 0 };

	(void)state;
	sim_init(&hooked, &f);
	sim_init(&inferred, &f);
	assert_int_equal(inferred.kv.ll_infer, 1);	/* what the collector sets */
	hooked.kv.ll_infer = 0;
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		run_seq(&hooked, seqs[i], 1);
		run_seq(&inferred, seqs[i], 0);
	}
	assert_memory_equal(&hooked.cs, &inferred.cs, sizeof(hooked.cs));
	assert_int_equal(hooked.nlat, inferred.nlat);
	assert_memory_equal(hooked.lat, inferred.lat, sizeof(hooked.lat));
	/* and the counts themselves, from the sequence: 4 successes, 2 aborts, 2 retries */
	assert_int_equal(inferred.cs.ll[FL_LL_ATTEMPTED], 8);
	assert_int_equal(inferred.cs.ll[FL_LL_SUCCEEDED], 4);
	assert_int_equal(inferred.cs.ll[FL_LL_ABORTED], 2);
	assert_int_equal(inferred.cs.ll[FL_LL_RETRIED], 2);
	assert_int_equal(inferred.cs.ll[FL_LL_MMAP_RETRY], 2);
	assert_int_equal(inferred.cs.ll[FL_LL_NOT_ATTEMPTED], 2);
	assert_int_equal(inferred.cs.cnt[FL_C_FAULTS_ENDED], 10);
	assert_int_equal(inferred.cs.cnt[FL_C_HMF_CALLS], 15);
}

/*
 * The kprobe tier without the entry kprobe: the flags of each call told
 * from mmap_lock events (fl_kret_vma_locked) must give the counts the
 * hooked flags give, for the sequences do_user_addr_fault (6.12) produces.
 * Events: 'a' read-acquire, 'f' failed trylock, 'r' release, 'V' call under
 * the VMA lock returning 0, 'v' returning RETRY, 'M' call under mmap_lock
 * returning 0, 'm' returning RETRY, 'c' returning COMPLETED.
 */
static void kret_seq(struct sim *hooked, struct sim *inferred, const char *ev)
{
	int acq = 0, held = 0, tried = 0;

	ev_start(hooked, 0);
	ev_start(inferred, 0);
	for (const char *p = ev; *p; p++) {
		fl_u32 flags = 0, ret = 0;

		switch (*p) {
		case 'a': acq = held = 1; continue;
		case 'r': held = 0; continue;
		case 'f': continue;
		case 'V': flags = F_VMA_LOCK; break;
		case 'v': flags = F_VMA_LOCK; ret = RETRY; break;
		case 'M': break;
		case 'm': ret = RETRY; break;
		case 'c': ret = COMPLETED; break;
		}
		flags |= F_USER | (tried ? F_TRIED : 0);
		ev_hmf(hooked, flags, ret);
		ev_hmf(inferred, fl_kret_vma_locked(acq, held, ret, RETRY | COMPLETED) ?
			 flags | F_VMA_LOCK : flags & ~F_VMA_LOCK, ret);
		acq = 0;
		tried |= (ret & RETRY) != 0;
	}
}

static void test_kret_inferred_equals_hooked(void **state)
{
	static const char *const seqs[] = {
		"V",		/* lockless */
		"arV",		/* lockless, vmf_anon_prepare's trylock on a VMA's first fault */
		"fvaMr",	/* that trylock failed: RETRY, then the mmap_lock path */
		"vaMr",		/* lockless RETRY (e.g. a locked folio), then mmap_lock */
		"aMr",		/* lookup failed (hooked: an abort) or kernel-mode */
		"armaMr",	/* mmap_lock path: RETRY dropped the lock, again */
		"arc",		/* mmap_lock path, COMPLETED: the lock dropped inside */
		"V",
	};
	struct fl_kfeatures f = vma_kernel();
	struct sim hooked, inferred;

	(void)state;
	sim_init(&hooked, &f);
	sim_init(&inferred, &f);
	assert_int_equal(inferred.kv.ll_infer, 1);	/* the first call tells the lookup */
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
		kret_seq(&hooked, &inferred, seqs[i]);
	assert_memory_equal(&hooked.cs, &inferred.cs, sizeof(hooked.cs));
	assert_memory_equal(hooked.lat, inferred.lat, sizeof(hooked.lat));
	/* from the sequences: 8 faults; 3 lockless successes, 2 lockless RETRYs */
	assert_int_equal(inferred.cs.cnt[FL_C_FAULTS_ENDED], 8);
	assert_int_equal(inferred.cs.ll[FL_LL_SUCCEEDED], 3);
	assert_int_equal(inferred.cs.ll[FL_LL_RETRIED], 2);
	assert_int_equal(inferred.cs.ll[FL_LL_MMAP_RETRY], 1);
	assert_int_equal(inferred.cs.ll[FL_LL_ATTEMPTED], 8);
	assert_int_equal(inferred.cs.ll[FL_LL_ABORTED], 3);
	assert_int_equal(inferred.cs.ll[FL_LL_NOT_ATTEMPTED], 0);
}

static void test_vma_inferred_unhandled(void **state)
{
	struct fl_kfeatures f = vma_kernel();
	struct sim s;

	(void)state;
	sim_init(&s, &f);
	/* SIGSEGV: no handle_mm_fault call; the next fault ends normally */
	ev_start(&s, 0);
	ev_start(&s, 0);
	ev_hmf(&s, F_USER | F_VMA_LOCK, 0);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_UNHANDLED], 1);
	assert_int_equal(s.cs.ll[FL_LL_ATTEMPTED], 1);	/* the handled one only */
	assert_int_equal(s.cs.ll[FL_LL_SUCCEEDED], 1);
	assert_int_equal(s.nlat, 1);
}

/*
 * A fault whose last handle_mm_fault return was skipped (a preempted fexit
 * holding the recursion guard, issue 26): found at the task's next fault,
 * counted missed, never unhandled, never silently; a reason still to read
 * then counts unread.  counted = ended + unhandled + missed.
 */
static void test_lost_end(void **state)
{
	struct fl_kfeatures f = vma_kernel();
	struct sim s;

	(void)state;
	sim_init(&s, &f);
	s.kv.ll_why = 1;
	/* VMA-locked RETRY seen, its redo's return skipped */
	ev_start(&s, 0);
	ev_hmf(&s, F_USER | F_VMA_LOCK, RETRY);
	ev_start(&s, 0);
	assert_int_equal(s.cs.cnt[FL_C_MISSED], 1);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_UNHANDLED], 0);
	assert_int_equal(s.cs.cnt[FL_C_LLW_UNREAD], 0);	/* ll_why read nothing: not NOANON */
	ev_hmf(&s, F_USER | F_VMA_LOCK, 0);
	/* a retry with no anon_vma (the read says so), the redo's return skipped */
	ev_start(&s, 0);
	ev_hmf(&s, F_USER | F_VMA_LOCK, RETRY);
	s.st.flags |= FL_FS_LL_NOANON;	/* what fl_ev_ll_why sets for anon == 0 */
	ev_start(&s, 0);
	assert_int_equal(s.cs.cnt[FL_C_MISSED], 2);
	assert_int_equal(s.cs.cnt[FL_C_LLW_UNREAD], 1);
	/* the only return skipped: unhandled, as a SIGSEGV (no hook tells them apart) */
	ev_start(&s, 0);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_UNHANDLED], 1);
	ev_hmf(&s, F_USER | F_VMA_LOCK, 0);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_USER],
			 s.cs.cnt[FL_C_FAULTS_ENDED] + s.cs.cnt[FL_C_FAULTS_UNHANDLED] +
			 s.cs.cnt[FL_C_MISSED]);
}

/* A task gone mid-fault (its last switch): counted as its next fault start would. */
static void test_fault_gone(void **state)
{
	struct fl_kfeatures f = vma_kernel();
	struct sim s, t;

	(void)state;
	sim_init(&s, &f);
	s.kv.ll_why = 1;
	t = s;
	/* the same two sequences, one ended by a fault start, one by the task's end */
	ev_start(&s, 0);
	ev_start(&t, 0);
	ev_hmf(&s, F_USER | F_VMA_LOCK, RETRY);	/* its redo's return skipped */
	ev_hmf(&t, F_USER | F_VMA_LOCK, RETRY);
	ev_start(&s, 0);
	fl_ev_fault_gone(&t.st, &t.cs);
	t.st.start_ns = 0;
	ev_start(&t, 0);
	/* no return at all (never reached handle_mm_fault, or its only one skipped) */
	ev_lock_vma(&s, 0);
	ev_lock_vma(&t, 0);
	ev_start(&s, 0);
	fl_ev_fault_gone(&t.st, &t.cs);
	t.st.start_ns = 0;
	t.cs.cnt[FL_C_FAULTS_USER]++;	/* s counted the start that found it */
	for (int i = 0; i < FL_C_NR; i++)
		assert_int_equal(s.cs.cnt[i], t.cs.cnt[i]);
	assert_int_equal(t.cs.cnt[FL_C_MISSED], 1);
	assert_int_equal(t.cs.cnt[FL_C_FAULTS_UNHANDLED], 1);
	assert_int_equal(t.cs.cnt[FL_C_LLW_NOVMA], 1);
}

static void test_unhandled_and_gup(void **state)
{
	struct fl_kfeatures f = vma_kernel();
	struct fl_fault_state none = { 0 };
	struct sim s;
	fl_u64 lat;

	(void)state;
	sim_init(&s, &f);
	/* access error / SIGSEGV: the fault never reaches handle_mm_fault */
	ev_start(&s, 0);
	ev_start(&s, 0);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_UNHANDLED], 1);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_USER], 2);
	ev_lock_vma(&s, 1);
	ev_hmf(&s, F_USER | F_VMA_LOCK, 0);
	assert_int_equal(s.nlat, 1);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_ENDED], 1);
	/* a fault that reached handle_mm_fault is not unhandled */
	ev_start(&s, 0);
	ev_lock_vma(&s, 1);
	ev_hmf(&s, F_USER | F_VMA_LOCK, RETRY);
	ev_start(&s, 0);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_UNHANDLED], 1);
	/* GUP (no fault in flight): a call, nothing else */
	lat = fl_ev_hmf_exit(&none, &s.cs, &s.kv, F_VMA_LOCK, 0, s.now + 5, &s.need);
	assert_int_equal(lat, 0);
	assert_int_equal(s.cs.cnt[FL_C_HMF_CALLS], 3);
	assert_int_equal(s.cs.ll[FL_LL_SUCCEEDED], 1);
	/* lock_vma_under_rcu outside a traced fault is ignored */
	memset(&none, 0, sizeof(none));
	fl_ev_lock_vma(&none, &s.cs, 0);
	assert_int_equal(s.cs.ll[FL_LL_ABORTED], 0);
}

/* ---- SPF kernels -------------------------------------------------------- */

static void spf_sequences(fl_u32 spf_flag, const struct fl_kfeatures *f)
{
	struct sim s;

	sim_init(&s, f);
	assert_int_equal(s.kv.ll_flag, spf_flag);
	/* speculative success */
	ev_start(&s, 0);
	ev_hmf(&s, F_USER | spf_flag, 0);
	assert_int_equal(s.nlat, 1);
	assert_int_equal(s.lat[0], 1000);
	assert_int_equal(s.cs.ll[FL_LL_ATTEMPTED], 1);
	assert_int_equal(s.cs.ll[FL_LL_SUCCEEDED], 1);
	/* speculative abort (RETRY), then the classic path */
	ev_start(&s, 0);
	ev_hmf(&s, F_USER | spf_flag, RETRY);
	assert_int_equal(s.nlat, 1);
	assert_int_equal(s.cs.ll[FL_LL_ABORTED], 1);
	ev_hmf(&s, F_USER, 0);
	assert_int_equal(s.nlat, 2);
	assert_int_equal(s.lat[1], 2000);
	assert_int_equal(s.cs.ll[FL_LL_ATTEMPTED], 2);
	assert_int_equal(s.cs.ll[FL_LL_NOT_ATTEMPTED], 0);
	/* single-threaded mm: no speculative attempt */
	ev_start(&s, 0);
	ev_hmf(&s, F_USER, 0);
	assert_int_equal(s.cs.ll[FL_LL_NOT_ATTEMPTED], 1);
	assert_int_equal(s.cs.ll[FL_LL_ATTEMPTED], 2);
	assert_int_equal(s.cs.ll[FL_LL_SUCCEEDED], 1);
	assert_int_equal(s.cs.ll[FL_LL_RETRIED], 0);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_ENDED], 3);
	assert_int_equal(s.cs.cnt[FL_C_HMF_CALLS], 4);
}

/*
 * Abort / retry reasons: which return asks the backend to read the VMA
 * (hooked and inferred lookups alike), and what the read values mean.  The
 * seq pairs are what the kernel leaves: vma_start_write() sets vm_lock_seq
 * to mm_lock_seq, the writer's unlock advances mm_lock_seq by one (an int
 * up to 6.11, a seqcount since: 6.12 holds it odd while write-locked).
 */
static void why(struct sim *s, fl_u32 vseq, fl_u32 mseq, int anon, fl_u64 vm_flags,
		fl_u64 vm_start, fl_u64 addr)
{
	struct fl_vma_look v = { .address = addr, .vm_start = vm_start, .vm_flags = vm_flags,
				 .vm_lock_seq = vseq, .mm_lock_seq = mseq, .anon = anon, .ok = 1 };

	assert_int_not_equal(s->need, FL_NEED_NONE);
	fl_ev_ll_why(&s->st, &s->cs, s->need, &v);
}

static void abort_fault(struct sim *s, int infer)
{
	ev_start(s, 0);
	if (!infer)
		ev_lock_vma(s, 0);
}

/* a user fault whose lookup succeeded and whose VMA-locked call asked for RETRY */
static void retry_fault(struct sim *s, int infer)
{
	ev_start(s, 0);
	if (!infer)
		ev_lock_vma(s, 1);
	ev_hmf(s, F_USER | F_VMA_LOCK, RETRY);
}

static void test_ll_why(void **state)
{
	struct fl_kfeatures f = vma_kernel();
	struct fl_vma_look bad = { .ok = 0 };
	struct sim s;
	int infer;

	(void)state;
	f.vm_fault_completed = COMPLETED;
	for (infer = 0; infer < 2; infer++) {
		sim_init(&s, &f);
		s.kv.ll_infer = infer;
		s.kv.ll_why = 1;
		assert_int_equal(s.kv.vm_fault_end, RETRY | COMPLETED);
		/* success: nothing to read */
		ev_start(&s, 0);
		if (!infer)
			ev_lock_vma(&s, 1);
		ev_hmf(&s, F_USER | F_VMA_LOCK, 0);
		assert_int_equal(s.need, FL_NEED_NONE);
		/* abort behind the writer that locked this VMA (6.12: seq 7 odd while held, 8 after) */
		abort_fault(&s, infer);
		ev_hmf(&s, F_USER, 0);
		assert_int_equal(s.need, FL_NEED_ABORT);
		why(&s, 7, 8, 1, 0, 0x1000, 0x1234);
		/* int encoding wrapped: vm_lock_seq 0xffffffff, mm_lock_seq 0 */
		abort_fault(&s, infer);
		ev_hmf(&s, F_USER, 0);
		why(&s, 0xffffffffu, 0, 1, 0, 0x1000, 0x1234);
		/* abort; the VMA was last locked two write cycles ago */
		abort_fault(&s, infer);
		ev_hmf(&s, F_USER, 0);
		why(&s, 5, 9, 1, 0, 0x1000, 0x1234);
		/* stack growth: grows-down VMA starting at the fault's page, locked by the fault */
		abort_fault(&s, infer);
		ev_hmf(&s, F_USER, 0);
		why(&s, 7, 8, 1, FL_VM_GROWSDOWN, 0x7000, 0x7ff8);
		/* grows-down, but the fault is not in its first page: write-locked */
		abort_fault(&s, infer);
		ev_hmf(&s, F_USER, 0);
		why(&s, 7, 8, 1, FL_VM_GROWSDOWN, 0x7000, 0x8010);
		/* userfaultfd: the first mmap_lock call drops the lock, the redo reads */
		abort_fault(&s, infer);
		ev_hmf(&s, F_USER, RETRY);
		assert_int_equal(s.need, FL_NEED_NONE);
		ev_hmf(&s, F_USER | F_TRIED, 0);
		assert_int_equal(s.need, FL_NEED_ABORT);
		why(&s, 3, 8, 1, FL_VM_GROWSDOWN, 0x7000, 0x7000);
		/* abort whose fault ends with the lock dropped (COMPLETED): unread */
		abort_fault(&s, infer);
		ev_hmf(&s, F_USER, COMPLETED);
		assert_int_equal(s.need, FL_NEED_NONE);
		/* a read that faulted: unread */
		abort_fault(&s, infer);
		ev_hmf(&s, F_USER, 0);
		fl_ev_ll_why(&s.st, &s.cs, s.need, &bad);
		/* retry, no anon_vma, the redo attached one: no anon_vma */
		retry_fault(&s, infer);
		assert_int_equal(s.need, FL_NEED_RETRY);
		why(&s, 0, 0, 0, 0, 0, 0);
		ev_hmf(&s, F_USER | F_TRIED, 0);
		assert_int_equal(s.need, FL_NEED_REDO);
		why(&s, 0, 0, 1, 0, 0, 0);
		/* retry, no anon_vma before or after (the vDSO: no ->map_pages): other */
		retry_fault(&s, infer);
		why(&s, 0, 0, 0, 0, 0, 0);
		ev_hmf(&s, F_USER | F_TRIED, 0);
		why(&s, 0, 0, 0, 0, 0, 0);
		/* retry with anon_vma set (folio lock): other, at once; the redo reads nothing */
		retry_fault(&s, infer);
		why(&s, 0, 0, 1, 0, 0, 0);
		ev_hmf(&s, F_USER | F_TRIED, 0);
		assert_int_equal(s.need, FL_NEED_NONE);
		/*
		 * retry in a shared mapping (no anon_vma ever): other at once,
		 * though its redo ends with the lock dropped (COMPLETED)
		 */
		retry_fault(&s, infer);
		why(&s, 0, 0, 0, FL_VM_SHARED, 0, 0);
		ev_hmf(&s, F_USER | F_TRIED, COMPLETED);
		assert_int_equal(s.need, FL_NEED_NONE);
		/* kernel-mode fault under mmap_lock: no attempt, nothing to read */
		ev_start(&s, 1);
		ev_hmf(&s, 0, 0);
		assert_int_equal(s.need, FL_NEED_NONE);
		assert_int_equal(s.cs.cnt[FL_C_LLW_WLOCKED], 3);
		assert_int_equal(s.cs.cnt[FL_C_LLW_NOVMA], 2);
		assert_int_equal(s.cs.cnt[FL_C_LLW_OTHER], 1);
		assert_int_equal(s.cs.cnt[FL_C_LLW_UNREAD], 2);
		assert_int_equal(s.cs.cnt[FL_C_LLW_ANON], 1);
		assert_int_equal(s.cs.cnt[FL_C_LLW_RETRY_OTHER], 3);
		assert_int_equal(s.cs.ll[FL_LL_ABORTED], 8);
		assert_int_equal(s.cs.ll[FL_LL_RETRIED], 4);
		assert_int_equal(s.cs.cnt[FL_C_FAULTS_ENDED], 14);
	}
	/* hooked lookup, no VMA at all (SIGSEGV): counted at the next fault */
	sim_init(&s, &f);
	s.kv.ll_why = 1;
	abort_fault(&s, 0);
	ev_start(&s, 0);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_UNHANDLED], 1);
	assert_int_equal(s.cs.cnt[FL_C_LLW_NOVMA], 1);
	/* not asked where the backend cannot read (kprobe tier, no per-VMA locks) */
	sim_init(&s, &f);
	s.kv.ll_infer = 1;
	ev_start(&s, 0);
	ev_hmf(&s, F_USER, 0);
	assert_int_equal(s.cs.ll[FL_LL_ABORTED], 1);
	assert_int_equal(s.need, FL_NEED_NONE);
	sim_init(&s, &f);
	s.kv.ll_why = 1;
	s.kv.ll_kind = FL_LL_KIND_NONE;
	ev_start(&s, 0);
	ev_hmf(&s, F_USER, RETRY);
	assert_int_equal(s.need, FL_NEED_NONE);
}

static void test_spf_lespinasse(void **state)
{
	struct fl_kfeatures f = feat();

	(void)state;
	f.has_hmf = false;
	f.has_do_hmf = true;
	spf_sequences(0x400, &f);
}

static void test_spf_dufour(void **state)
{
	struct fl_kfeatures f = feat();

	(void)state;
	f.has_spf_dufour = true;
	spf_sequences(0x200, &f);
}

/* ---- kernels without a lockless path (6.1) ------------------------------ */

static void test_no_lockless(void **state)
{
	struct fl_kfeatures f = feat();
	struct sim s;

	(void)state;
	sim_init(&s, &f);
	/* flags that mean SPF / VMA_LOCK elsewhere mean nothing here */
	ev_start(&s, 0);
	ev_hmf(&s, F_USER | F_UNSHARE, 0);
	ev_start(&s, 0);
	ev_hmf(&s, F_USER | F_VMA_LOCK, RETRY);
	ev_hmf(&s, F_USER | F_TRIED, 0);
	assert_int_equal(s.nlat, 2);
	assert_int_equal(s.cs.ll[FL_LL_ATTEMPTED], 0);
	assert_int_equal(s.cs.ll[FL_LL_SUCCEEDED], 0);
	assert_int_equal(s.cs.ll[FL_LL_ABORTED], 0);
	assert_int_equal(s.cs.ll[FL_LL_RETRIED], 0);
	assert_int_equal(s.cs.ll[FL_LL_NOT_ATTEMPTED], 2);
	assert_int_equal(s.cs.ll[FL_LL_MMAP_RETRY], 1);
	assert_int_equal(s.cs.cnt[FL_C_FAULTS_ENDED], 2);
}

/* ---- detection from BTF (synthetic vmlinux BTF files) ------------------- */

static char btf_path[64];

static void add_func(struct btf *b, const char *name, int proto)
{
	assert_true(btf__add_func(b, name, BTF_FUNC_GLOBAL, proto) > 0);
}

/* typedef btf_trace_TP -> ptr -> func_proto with NARGS params */
static void add_tp(struct btf *b, const char *tp, int nargs, int int_id)
{
	char name[128];
	int proto, ptr;

	proto = btf__add_func_proto(b, int_id);
	for (int i = 0; i < nargs; i++)
		assert_int_equal(btf__add_func_param(b, "", int_id), 0);
	ptr = btf__add_ptr(b, proto);
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	assert_true(btf__add_typedef(b, name, ptr) > 0);
}

static void write_btf(struct btf *b)
{
	const void *data;
	__u32 size;
	FILE *fp;

	data = btf__raw_data(b, &size);
	assert_non_null(data);
	snprintf(btf_path, sizeof(btf_path), "/tmp/fl-test-btf.%d", (int)getpid());
	fp = fopen(btf_path, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, size, fp), size);
	fclose(fp);
	setenv("FAULTLINE_BTF", btf_path, 1);
}

static void detect(struct fl_kfeatures *f, const char *const *funcs, int memcg,
		   const char *enum_name, long long enum_val)
{
	struct btf *b = btf__new_empty();
	char err[256];
	int int_id, proto, e;

	assert_non_null(b);
	int_id = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	proto = btf__add_func_proto(b, int_id);
	for (; *funcs; funcs++)
		add_func(b, *funcs, proto);
	add_tp(b, "page_fault_user", 4, int_id);
	add_tp(b, "mmap_lock_start_locking", memcg ? 4 : 3, int_id);
	add_tp(b, "mmap_lock_acquire_returned", memcg ? 5 : 4, int_id);
	add_tp(b, "mmap_lock_released", memcg ? 4 : 3, int_id);
	e = btf__add_enum(b, "vm_fault_reason", 4);
	assert_true(e > 0);
	assert_int_equal(btf__add_enum_value(b, "VM_FAULT_RETRY", 0x400), 0);
	if (enum_name) {
		assert_true(btf__add_enum(b, "fault_flag", 4) > 0);
		assert_int_equal(btf__add_enum_value(b, enum_name, enum_val), 0);
	}
	write_btf(b);
	btf__free(b);
	assert_int_equal(fl_kfeatures_read(f, err, sizeof(err)), 0);
	unlink(btf_path);
}

static void test_detect_vma_lock_kernel(void **state)
{
	static const char *const funcs[] = { "handle_mm_fault", "lock_vma_under_rcu", NULL };
	struct fl_kfeatures f;
	struct fl_kvals kv;

	(void)state;
	detect(&f, funcs, 1, "FAULT_FLAG_VMA_LOCK", 0x1000);
	assert_true(f.has_hmf && f.has_lock_vma);
	assert_false(f.has_do_hmf || f.has_spf_dufour);
	assert_true(f.tp_pf_user);
	assert_false(f.tp_pf_kernel);
	assert_true(f.tp_mmap_lock);
	assert_int_equal(f.mmap_memcg, 1);	/* (mm, memcg_path, write) */
	assert_int_equal(f.flag_vma_lock, 0x1000);
	assert_int_equal(f.flag_speculative, -1);
	assert_int_equal(f.vm_fault_retry, 0x400);
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_kind, FL_LL_KIND_VMA_LOCK);
	assert_int_equal(kv.ll_flag, 0x1000);
}

static void test_detect_spf_kernels(void **state)
{
	static const char *const lesp[] = { "do_handle_mm_fault", NULL };
	static const char *const duf[] = { "handle_mm_fault", "__handle_speculative_fault", NULL };
	struct fl_kfeatures f;
	struct fl_kvals kv;

	(void)state;
	detect(&f, lesp, 1, NULL, 0);
	assert_true(f.has_do_hmf);
	assert_false(f.has_hmf);
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_kind, FL_LL_KIND_SPF);
	assert_int_equal(kv.ll_flag, 0x400);

	detect(&f, duf, 0, NULL, 0);
	assert_true(f.has_spf_dufour && f.has_hmf);
	assert_int_equal(f.mmap_memcg, 0);	/* (mm, write) prototype */
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_kind, FL_LL_KIND_SPF);
	assert_int_equal(kv.ll_flag, 0x200);

	/* an SPF kernel with the flag as an enumerator */
	detect(&f, lesp, 0, "FAULT_FLAG_SPECULATIVE", 0x800);
	assert_int_equal(f.flag_speculative, 0x800);
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_flag, 0x800);
}

static void test_detect_no_lockless_kernel(void **state)
{
	static const char *const funcs[] = { "handle_mm_fault", NULL };
	struct fl_kfeatures f;
	struct fl_kvals kv;

	(void)state;
	detect(&f, funcs, 1, NULL, 0);
	assert_false(f.has_lock_vma || f.has_do_hmf || f.has_spf_dufour);
	fl_kvals_from_features(&f, &kv);
	assert_int_equal(kv.ll_kind, FL_LL_KIND_NONE);
	assert_string_equal(fl_lockless_describe(&f),
			    "none (no lock_vma_under_rcu, no SPF entry point)");
}

static void test_detect_no_btf(void **state)
{
	struct fl_kfeatures f;
	char err[256] = "";

	(void)state;
	setenv("FAULTLINE_BTF", "/nonexistent/vmlinux", 1);
	assert_int_equal(fl_kfeatures_read(&f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no kernel BTF"));
	assert_false(f.btf);
}

/*
 * The one BTF probe (kfeatures_btf.c) that record, the bpf backend and
 * phases.c share: a tracepoint's count includes the probe's void *__data
 * (contention_begin(lock, flags) is 3), a const in the typedef chain is
 * walked, enum64 enumerators are found, and a NULL btf has nothing.
 */
static void test_btf_probe_helpers(void **state)
{
	struct btf *b = btf__new_empty();
	struct fl_kfeatures f;
	int int_id, proto, ptr, cst, e, anon;

	(void)state;
	assert_non_null(b);
	int_id = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	add_tp(b, "contention_begin", 3, int_id);	/* __data, lock, flags */
	add_tp(b, "contention_end", 3, int_id);		/* __data, lock, ret */
	/* typedef btf_trace_mmap_lock_released -> const -> ptr -> proto(4) */
	proto = btf__add_func_proto(b, int_id);
	for (int i = 0; i < 4; i++)
		assert_int_equal(btf__add_func_param(b, "", int_id), 0);
	ptr = btf__add_ptr(b, proto);
	cst = btf__add_const(b, ptr);
	assert_true(btf__add_typedef(b, "btf_trace_mmap_lock_released", cst) > 0);
	add_tp(b, "mmap_lock_start_locking", 4, int_id);
	add_tp(b, "mmap_lock_acquire_returned", 5, int_id);
	e = btf__add_enum64(b, "fault_flag", 8, false);
	assert_true(e > 0);
	assert_int_equal(btf__add_enum64_value(b, "FAULT_FLAG_VMA_LOCK", 1ULL << 12), 0);
	add_func(b, "handle_mm_fault", btf__add_func_proto(b, int_id));

	assert_int_equal(fl_btf_tp_nargs(b, "contention_begin"), 3);
	assert_int_equal(fl_btf_tp_nargs(b, "mmap_lock_released"), 4);
	assert_int_equal(fl_btf_tp_nargs(b, "no_such_tp"), -1);
	assert_int_equal(fl_btf_enum_value(b, "FAULT_FLAG_VMA_LOCK"), 1 << 12);
	assert_int_equal(fl_btf_enum_value(b, "NO_SUCH"), -1);
	assert_true(fl_btf_has_func(b, "handle_mm_fault"));
	assert_false(fl_btf_has_func(b, "lock_vma_under_rcu"));
	assert_false(fl_btf_has_member(b, "vm_area_struct", "vm_lock_seq"));
	fl_kfeatures_from_btf(&f, b);
	assert_false(f.vma_lock_seq);
	assert_true(btf__add_struct(b, "vm_area_struct", 8) > 0);
	assert_int_equal(btf__add_field(b, "vm_start", int_id, 0, 0), 0);
	assert_int_equal(btf__add_field(b, "vm_lock_seq", int_id, 32, 0), 0);
	/* mm_struct's members sit in an anonymous struct (randomized layout) */
	anon = btf__add_struct(b, NULL, 4);
	assert_true(anon > 0);
	assert_int_equal(btf__add_field(b, "mm_lock_seq", int_id, 0, 0), 0);
	assert_true(btf__add_struct(b, "mm_struct", 4) > 0);
	assert_int_equal(btf__add_field(b, NULL, anon, 0, 0), 0);
	assert_true(fl_btf_has_member(b, "mm_struct", "mm_lock_seq"));
	assert_true(fl_btf_has_member(b, "vm_area_struct", "vm_lock_seq"));
	assert_false(fl_btf_has_member(b, "vm_area_struct", "vm_lock"));
	assert_false(fl_btf_has_member(b, "no_such_struct", "vm_lock_seq"));

	fl_kfeatures_from_btf(&f, b);
	assert_true(f.vma_lock_seq);
	assert_true(f.btf && f.has_hmf && f.tp_contention && f.tp_mmap_lock);
	assert_int_equal(f.mmap_memcg, 1);	/* (mm, memcg_path, write) */
	assert_int_equal(f.flag_vma_lock, 1 << 12);

	/* task storage: the enumerators alone (5.12 without BPF_LSM) are not it */
	assert_false(f.task_storage);
	e = btf__add_enum(b, "bpf_map_type", 4);
	assert_true(e > 0);
	assert_int_equal(btf__add_enum_value(b, "BPF_MAP_TYPE_TASK_STORAGE", 29), 0);
	e = btf__add_enum(b, "bpf_func_id", 4);
	assert_true(e > 0);
	assert_int_equal(btf__add_enum_value(b, "BPF_FUNC_get_current_task_btf", 158), 0);
	fl_kfeatures_from_btf(&f, b);
	assert_false(f.task_storage);
	add_func(b, "task_storage_map_alloc", btf__add_func_proto(b, int_id));
	fl_kfeatures_from_btf(&f, b);
	assert_true(f.task_storage);
	btf__free(b);

	assert_int_equal(fl_btf_tp_nargs(NULL, "contention_begin"), -1);
	assert_int_equal(fl_btf_enum_value(NULL, "FAULT_FLAG_VMA_LOCK"), -1);
	assert_false(fl_btf_has_func(NULL, "handle_mm_fault"));
	fl_kfeatures_from_btf(&f, NULL);
	assert_false(f.btf || f.has_hmf || f.tp_contention);
	assert_int_equal(f.mmap_memcg, -1);
}

/* a temporary cpuinfo file of TEXT at PATH (a mkstemp template) */
static void cpuinfo_file(const char *text, char *path)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* The spinlock-visibility caveat follows the cpuinfo "hypervisor" flag, whole word. */
static const char *caveat_for(const char *cpuinfo)
{
	char path[] = "/tmp/fl-cpuinfo-XXXXXX";
	const char *r;

	cpuinfo_file(cpuinfo, path);
	r = fl_spin_contention_caveat(path);
	unlink(path);
	return r;
}

/* fl_cpu_flag: whole words of the first flags line (la57: blame's pointer check) */
static bool flag_for(const char *cpuinfo, const char *flag)
{
	char path[] = "/tmp/fl-cpuinfo-XXXXXX";
	bool r;

	cpuinfo_file(cpuinfo, path);
	r = fl_cpu_flag(path, flag);
	unlink(path);
	return r;
}

static void test_cpu_flag(void **state)
{
	(void)state;
	assert_true(flag_for("flags\t\t: fpu la57 pku\n", "la57"));
	assert_true(flag_for("flags\t\t: fpu pku la57\n", "la57"));
	assert_false(flag_for("flags\t\t: fpu xla57 la57x\n", "la57"));
	assert_false(flag_for("flags\t\t: fpu pku\nflags\t\t: la57\n", "la57"));	/* the first line only */
	assert_false(fl_cpu_flag("/nonexistent/cpuinfo", "la57"));
}

static void test_spin_caveat(void **state)
{
	(void)state;
	assert_non_null(caveat_for("processor\t: 0\nflags\t\t: fpu vme hypervisor lahf_lm\n"));
	assert_non_null(caveat_for("flags\t\t: fpu hypervisor\n"));
	assert_null(caveat_for("flags\t\t: fpu vme vmx lahf_lm\n"));
	assert_null(caveat_for("flags\t\t: fpu xhypervisorx\n"));
	assert_null(caveat_for("Features\t: fp asimd\n"));	/* arm64: no flags line */
	assert_null(fl_spin_contention_caveat("/nonexistent/cpuinfo"));
}

/*
 * The kernels' own in_task() masks, built here the way include/linux/
 * preempt.h builds them (its BITS and SHIFTs, not classify.h's constants):
 * NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET.
 *   <= 6.x (5.10 .. 6.18): PREEMPT 8, SOFTIRQ 8, HARDIRQ 4, NMI 4 bits.
 *   7.x (7.3): PREEMPT 8, SOFTIRQ 8, HARDIRQ_DISABLE 8, HARDIRQ 4 bits, NMI
 *   1 + 3 * HAS_SEPARATE_PREEMPT_RESCHED_BITS (y on x86-64) bits.
 */
#define K_IRQ_MASK(x)		((1u << (x)) - 1)
#define K6_SOFTIRQ_SHIFT	8
#define K6_HARDIRQ_SHIFT	(K6_SOFTIRQ_SHIFT + 8)
#define K6_NMI_SHIFT		(K6_HARDIRQ_SHIFT + 4)
#define K6_NMI_MASK		(K_IRQ_MASK(4) << K6_NMI_SHIFT)		/* 0x00f00000 */
#define K6_HARDIRQ_MASK		(K_IRQ_MASK(4) << K6_HARDIRQ_SHIFT)	/* 0x000f0000 */
#define K6_HARDIRQ_OFFSET	(1u << K6_HARDIRQ_SHIFT)
#define K6_NMI_OFFSET		(1u << K6_NMI_SHIFT)
#define K7_SOFTIRQ_SHIFT	8
#define K7_HDIS_SHIFT		(K7_SOFTIRQ_SHIFT + 8)
#define K7_HARDIRQ_SHIFT	(K7_HDIS_SHIFT + 8)
#define K7_NMI_SHIFT		(K7_HARDIRQ_SHIFT + 4)
#define K7_NMI_MASK		(K_IRQ_MASK(1 + 3 * 1) << K7_NMI_SHIFT)	/* 0xf0000000 */
#define K7_HARDIRQ_MASK		(K_IRQ_MASK(4) << K7_HARDIRQ_SHIFT)	/* 0x0f000000 */
#define K7_HDIS_MASK		(K_IRQ_MASK(8) << K7_HDIS_SHIFT)		/* 0x00ff0000 */
#define K7_HDIS_OFFSET		(1u << K7_HDIS_SHIFT)
#define K7_HARDIRQ_OFFSET	(1u << K7_HARDIRQ_SHIFT)
#define K7_NMI_OFFSET		(1u << K7_NMI_SHIFT)
#define K_SOFTIRQ_OFFSET	(1u << 8)

/*
 * fl_in_task() with the <= 6.x mask: the in_task() of include/linux/
 * preempt.h (!PREEMPT_RT) on a raw preempt_count as the BPF programs read
 * it.  Not in it: preemption depth (0xff), softirqs disabled
 * (SOFTIRQ_DISABLE_OFFSET 0x200, local_bh_disable), and x86's inverted
 * PREEMPT_NEED_RESCHED bit 0x80000000 that the raw per-CPU value carries.
 */
static void test_in_task(void **state)
{
	fl_u32 m = fl_not_task_mask(FL_PC_LEGACY);

	(void)state;
	assert_int_equal(m, K6_NMI_MASK | K6_HARDIRQ_MASK | K_SOFTIRQ_OFFSET);
	assert_int_equal(FL_NOT_TASK_MASK_LEGACY, m);
	assert_int_equal(FL_NOT_TASK_MASK, m);	/* the old name, for module/ */
	assert_true(fl_in_task(0, m));
	assert_true(fl_in_task(0x80000000u, m));		/* no resched needed */
	assert_true(fl_in_task(0x80000003u, m));		/* preempt_disable() x3 */
	assert_true(fl_in_task(0x200, m));			/* local_bh_disable() */
	assert_true(fl_in_task(0x80000000u | 0xfe00, m));	/* nested bh disables */
	assert_false(fl_in_task(0x100, m));			/* serving a softirq */
	assert_false(fl_in_task(0x80000000u | 0x301, m));	/* softirq, bh off, preempt off */
	assert_false(fl_in_task(K6_HARDIRQ_OFFSET, m));		/* hard IRQ */
	assert_false(fl_in_task(K6_HARDIRQ_OFFSET | 1, m));	/* hard IRQ, under a spinlock */
	/* NMI: nmi_enter adds NMI_OFFSET + HARDIRQ_OFFSET */
	assert_false(fl_in_task(0x80000000u | K6_NMI_OFFSET | K6_HARDIRQ_OFFSET, m));
	assert_false(fl_in_task(K6_NMI_OFFSET, m));		/* NMI bits alone */
	assert_false(fl_in_task(K6_NMI_MASK, m));
}

/*
 * 7.x: the interrupt-disable count (local_interrupt_disable(), spin_lock_
 * irq_disable) is task context; hard IRQ and NMI sit above it.  The raw
 * word the programs read is the low 4 bytes of the 8-byte x86-64
 * __preempt_count (PREEMPT_NEED_RESCHED at bit 63, not in them).  Issue 26:
 * the legacy mask reads the interrupt-disable count as hard IRQ/NMI and
 * misses both.
 */
static void test_in_task_7x(void **state)
{
	fl_u32 m = fl_not_task_mask(FL_PC_HDIS);
	fl_u32 old = fl_not_task_mask(FL_PC_LEGACY);

	(void)state;
	assert_int_equal(m, K7_NMI_MASK | K7_HARDIRQ_MASK | K_SOFTIRQ_OFFSET);
	assert_int_equal(FL_NOT_TASK_MASK_HDIS, m);
	assert_int_equal(m & K7_HDIS_MASK, 0);
	assert_true(fl_in_task(0, m));
	assert_true(fl_in_task(3, m));				/* preempt_disable() x3 */
	assert_true(fl_in_task(0x200, m));			/* local_bh_disable() */
	assert_true(fl_in_task(K7_HDIS_OFFSET | 1, m));		/* local_interrupt_disable() */
	assert_true(fl_in_task(K7_HDIS_MASK, m));		/* nested 255 deep */
	assert_false(fl_in_task(K_SOFTIRQ_OFFSET, m));		/* serving a softirq */
	assert_false(fl_in_task(K7_HARDIRQ_OFFSET, m));		/* hard IRQ */
	assert_false(fl_in_task(K7_HARDIRQ_OFFSET | 1, m));
	assert_false(fl_in_task(K7_NMI_OFFSET | K7_HARDIRQ_OFFSET, m));	/* nmi_enter */
	assert_false(fl_in_task(K7_NMI_OFFSET, m));
	assert_false(fl_in_task(K7_NMI_MASK, m));
	/* the bug: the old mask on a 7.x count */
	assert_true(fl_in_task(K7_HARDIRQ_OFFSET, old));
	assert_true(fl_in_task(K7_NMI_OFFSET | K7_HARDIRQ_OFFSET, old));
	assert_false(fl_in_task(K7_HDIS_OFFSET, old));
}

/*
 * The layout from BTF (fl_btf_pc_layout, via fl_kfeatures_read as record,
 * phases and blame call it): 7.3's BTF has the per-CPU VAR
 * local_interrupt_disable_state (in .data..percpu) and an out-of-line FUNC
 * local_interrupt_disable; either is 7.x.  6.x BTF (the 6.18 host's, 6.12's)
 * has neither, only __preempt_count.
 */
static int pc_btf(int var, int func)
{
	struct btf *b = btf__new_empty();
	struct fl_kfeatures f;
	char err[256];
	int ulong, v, proto;

	assert_non_null(b);
	ulong = btf__add_int(b, "long unsigned int", 8, 0);
	assert_true(ulong > 0);
	v = btf__add_var(b, "__preempt_count", BTF_VAR_GLOBAL_ALLOCATED, ulong);
	assert_true(v > 0);
	if (var) {
		int lv = btf__add_var(b, "local_interrupt_disable_state",
				      BTF_VAR_GLOBAL_ALLOCATED, ulong);

		assert_true(lv > 0);
		assert_true(btf__add_datasec(b, ".data..percpu", 16) > 0);
		assert_int_equal(btf__add_datasec_var_info(b, v, 0, 8), 0);
		assert_int_equal(btf__add_datasec_var_info(b, lv, 8, 8), 0);
	}
	proto = btf__add_func_proto(b, 0);
	if (func)
		assert_true(btf__add_func(b, "local_interrupt_disable", BTF_FUNC_STATIC, proto) > 0);
	/* the name in another kind (a FUNC) is not the marker */
	if (!var)
		assert_true(btf__add_func(b, "local_interrupt_disable_state", BTF_FUNC_STATIC,
					  proto) > 0);
	assert_int_equal(fl_btf_pc_layout(b), var || func ? FL_PC_HDIS : FL_PC_LEGACY);
	write_btf(b);
	btf__free(b);
	assert_int_equal(fl_kfeatures_read(&f, err, sizeof(err)), 0);
	unlink(btf_path);
	return (int)f.pc_layout;
}

static void test_pc_layout(void **state)
{
	(void)state;
	assert_int_equal(pc_btf(0, 0), FL_PC_LEGACY);
	assert_int_equal(pc_btf(1, 1), FL_PC_HDIS);	/* as in 7.3 */
	assert_int_equal(pc_btf(1, 0), FL_PC_HDIS);	/* inlined everywhere */
	assert_int_equal(pc_btf(0, 1), FL_PC_HDIS);	/* no per-CPU VARs in BTF */
	assert_int_equal(fl_btf_pc_layout(NULL), FL_PC_LEGACY);
	assert_int_equal(fl_not_task_mask(pc_btf(0, 0)), 0x00ff0100u);
	assert_int_equal(fl_not_task_mask(pc_btf(1, 1)), 0xff000100u);
	assert_non_null(strstr(fl_pc_layout_describe(FL_PC_LEGACY), "0x00ff0100"));
	assert_non_null(strstr(fl_pc_layout_describe(FL_PC_HDIS), "0xff000100"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_task),
		cmocka_unit_test(test_in_task_7x),
		cmocka_unit_test(test_pc_layout),
		cmocka_unit_test(test_kvals_vma_lock),
		cmocka_unit_test(test_kvals_spf),
		cmocka_unit_test(test_kvals_none),
		cmocka_unit_test(test_mmap_lock_off),
		cmocka_unit_test(test_mmap_lock_keep_off),
		cmocka_unit_test(test_vma_success),
		cmocka_unit_test(test_vma_completed_is_end),
		cmocka_unit_test(test_vma_abort),
		cmocka_unit_test(test_vma_retry),
		cmocka_unit_test(test_vma_kernel_mode_and_mmap_retry),
		cmocka_unit_test(test_vma_inferred_equals_hooked),
		cmocka_unit_test(test_kret_inferred_equals_hooked),
		cmocka_unit_test(test_vma_inferred_unhandled),
		cmocka_unit_test(test_unhandled_and_gup),
		cmocka_unit_test(test_lost_end),
		cmocka_unit_test(test_fault_gone),
		cmocka_unit_test(test_ll_why),
		cmocka_unit_test(test_spf_lespinasse),
		cmocka_unit_test(test_spf_dufour),
		cmocka_unit_test(test_no_lockless),
		cmocka_unit_test(test_detect_vma_lock_kernel),
		cmocka_unit_test(test_detect_spf_kernels),
		cmocka_unit_test(test_detect_no_lockless_kernel),
		cmocka_unit_test(test_detect_no_btf),
		cmocka_unit_test(test_btf_probe_helpers),
		cmocka_unit_test(test_spin_caveat),
		cmocka_unit_test(test_cpu_flag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
