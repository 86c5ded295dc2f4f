// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap_lock state machine (include/faultline/mmaplock.h) fed with the
 * event sequences the kernel produces (include/linux/mmap_lock.h): locks,
 * trylocks, killable locks interrupted, mmap_write_downgrade (munmap, brk),
 * contention, and unbalanced sequences (an event missed, a task with no
 * state).  Each sequence goes through two builds of the header, the BPF
 * programs' (hist.h's fl_hist_add) and the module's (one-bsr bucket,
 * mmaplock_kside.c), driven as both callers drive it (mmaplock_drive.h);
 * the two must produce the same statistics, byte for byte, and both must
 * equal the figures written down below for each sequence.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mmaplock_drive.h"
#define ML_DRIVE_NAME	ml_drive_bpf
#include "mmaplock_drive.h"

/* What a sequence must leave: counters, and count/sum per histogram. */
struct ml_want {
	fl_u64 trylock_fail;
	fl_u64 contended;
	struct { fl_u64 count, sum; } h[FL_H_NR];
};

#define W(id, c, s)	[id] = { c, s }

static const char *const hname[FL_H_NR] = FL_HIST_NAMES;

static void run(const struct ml_ev *ev, unsigned int n, int can_create,
		const struct ml_want *want)
{
	struct ml_task tb = { .can_create = can_create }, tk = { .can_create = can_create };
	struct fl_cpu_stats *b = calloc(1, sizeof(*b)), *k = calloc(1, sizeof(*k));
	unsigned int i;

	assert_non_null(b);
	assert_non_null(k);
	ml_drive_bpf(&tb, b, ev, n);
	ml_drive_kmod(&tk, k, ev, n);

	/* the two builds agree on everything, buckets included */
	assert_memory_equal(b, k, sizeof(*b));
	assert_memory_equal(&tb.ms, &tk.ms, sizeof(tb.ms));

	assert_int_equal(b->cnt[FL_C_MMAP_TRYLOCK_FAIL], want->trylock_fail);
	assert_int_equal(b->cnt[FL_C_MMAP_CONTENDED], want->contended);
	for (i = 0; i < FL_H_NR; i++) {
		if (b->hist[i].count != want->h[i].count || b->hist[i].sum != want->h[i].sum)
			fail_msg("%s: count %llu sum %llu, want count %llu sum %llu", hname[i],
				 b->hist[i].count, b->hist[i].sum, want->h[i].count,
				 want->h[i].sum);
	}
	/* no other figure moves */
	for (i = 0; i < FL_C_NR; i++)
		if (i != FL_C_MMAP_TRYLOCK_FAIL && i != FL_C_MMAP_CONTENDED)
			assert_int_equal(b->cnt[i], 0);
	for (i = 0; i < FL_LL_NR; i++)
		assert_int_equal(b->ll[i], 0);
	free(b);
	free(k);
}

#define RUN(ev, create, ...)						\
	do {								\
		const struct ml_want w_ = { __VA_ARGS__ };		\
		run(ev, sizeof(ev) / sizeof(ev[0]), create, &w_);	\
	} while (0)

#define START(w, t)	{ ML_START, w, 0, t }
#define ACQ(w, ok, t)	{ ML_ACQ, w, ok, t }
#define REL(w, t)	{ ML_REL, w, 0, t }
#define CB(t)		{ ML_CB, 0, 0, t }
#define CE(t)		{ ML_CE, 0, 0, t }

/* mmap_read_lock + unlock: a wait and a read hold. */
static void t_read_lock(void **state)
{
	const struct ml_ev ev[] = { START(0, 100), ACQ(0, 1, 130), REL(0, 400) };

	RUN(ev, 1, .h = { W(FL_H_MMAP_WAIT_R, 1, 30), W(FL_H_MMAP_HOLD_R, 1, 270) });
}

/* mmap_write_lock_killable, mmap_write_downgrade, mmap_read_unlock (munmap). */
static void t_downgrade(void **state)
{
	const struct ml_ev ev[] = {
		START(1, 1000), ACQ(1, 1, 1010),
		ACQ(0, 1, 1500),	/* mmap_write_downgrade */
		REL(0, 1800),
	};

	RUN(ev, 1, .h = { W(FL_H_MMAP_WAIT_W, 1, 10), W(FL_H_MMAP_HOLD_W, 1, 490),
			  W(FL_H_MMAP_HOLD_R, 1, 300) });
}

/* A plain write lock and unlock, then the same downgraded: two write holds. */
static void t_write_then_downgrade(void **state)
{
	const struct ml_ev ev[] = {
		START(1, 100), ACQ(1, 1, 150), REL(1, 350),
		START(1, 400), ACQ(1, 1, 420), ACQ(0, 1, 520), REL(0, 600),
	};

	RUN(ev, 1, .h = { W(FL_H_MMAP_WAIT_W, 2, 70), W(FL_H_MMAP_HOLD_W, 2, 300),
			  W(FL_H_MMAP_HOLD_R, 1, 80) });
}

/*
 * mmap_write_lock_killable interrupted by a fatal signal while contended:
 * it waited (a wait sample), failed (trylock_fail), held nothing; the later
 * unlock that a buggy caller might issue finds no hold.
 */
static void t_killable_fails(void **state)
{
	const struct ml_ev ev[] = {
		START(1, 2000), CB(2005), CE(2400), ACQ(1, 0, 2410), REL(1, 2500),
	};

	RUN(ev, 1, .trylock_fail = 1, .contended = 1,
	    .h = { W(FL_H_MMAP_WAIT_W, 1, 410), W(FL_H_MMAP_CONTEND, 1, 395) });
}

/* mmap_read_trylock: no start, so no wait; success holds, failure counts. */
static void t_trylock(void **state)
{
	const struct ml_ev ev[] = {
		ACQ(0, 1, 3000), REL(0, 3050),	/* success */
		ACQ(0, 0, 3100),		/* failure */
		ACQ(1, 0, 3200),		/* write trylock failure */
	};

	RUN(ev, 1, .trylock_fail = 2, .h = { W(FL_H_MMAP_HOLD_R, 1, 50) });
}

/* A failed trylock as the task's very first event: counted, no state needed. */
static void t_trylock_fail_first(void **state)
{
	const struct ml_ev ev[] = { ACQ(0, 0, 10) };

	RUN(ev, 1, .trylock_fail = 1);
}

/* A contended read lock that is then taken. */
static void t_contended(void **state)
{
	const struct ml_ev ev[] = {
		START(0, 4000), CB(4010), CE(4090), ACQ(0, 1, 4100), REL(0, 4200),
		START(1, 5000), CB(5001), CE(5301), ACQ(1, 1, 5302), REL(1, 5402),
	};

	RUN(ev, 1, .contended = 2,
	    .h = { W(FL_H_MMAP_WAIT_R, 1, 100), W(FL_H_MMAP_HOLD_R, 1, 100),
		   W(FL_H_MMAP_CONTEND, 2, 380), W(FL_H_MMAP_WAIT_W, 1, 302),
		   W(FL_H_MMAP_HOLD_W, 1, 100) });
}

/*
 * Unbalanced: a release and a contention end with nothing open; an acquire
 * while a hold is open (its release missed) restarts the hold; a second
 * release finds none; a start while a wait is open restarts the wait; a
 * read-to-read re-acquire is not a downgrade.
 */
static void t_unbalanced(void **state)
{
	const struct ml_ev ev[] = {
		REL(1, 5000), CE(5010),
		ACQ(1, 1, 5100), ACQ(1, 1, 5200), REL(1, 5300), REL(1, 5400),
		START(0, 5500), START(1, 5600), ACQ(1, 1, 5650), REL(1, 5700),
		ACQ(0, 1, 6000), ACQ(0, 1, 6100), REL(0, 6150),
		CB(7000), CB(7100), CE(7150), CE(7200),
	};

	RUN(ev, 1, .contended = 2,
	    .h = { W(FL_H_MMAP_HOLD_W, 2, 150), W(FL_H_MMAP_WAIT_W, 1, 50),
		   W(FL_H_MMAP_HOLD_R, 1, 50), W(FL_H_MMAP_CONTEND, 1, 50) });
}

/*
 * The task never gets state (storage / slot unavailable): nothing is timed,
 * but failures and contention are still counted -- both backends, every
 * traced task.
 */
static void t_no_state(void **state)
{
	const struct ml_ev ev[] = {
		START(1, 100), CB(110), CE(200), ACQ(1, 0, 210),
		ACQ(0, 1, 300), ACQ(1, 1, 310), ACQ(0, 1, 320), REL(0, 400),
		ACQ(0, 0, 500),
	};

	RUN(ev, 0, .trylock_fail = 2, .contended = 1);
}

/* Samples land in the same buckets in both builds, past the clamp too. */
#define NB	44
static void t_buckets_agree(void **state)
{
	struct ml_ev ev[3 * NB];
	unsigned int n = 0, k;
	fl_u64 t = 1;

	for (k = 0; k < NB; k++) {
		fl_u64 d = (1ULL << k) - (k & 1);	/* 2^k - 1 and 2^k, up to 2^43 */

		ev[n++] = (struct ml_ev)ACQ(1, 1, t);
		ev[n++] = (struct ml_ev)ACQ(0, 1, t + d);	/* downgrade: hold_w = d */
		ev[n++] = (struct ml_ev)REL(0, t + d);		/* hold_r = 0 */
		t += d + 1;
	}
	{
		struct ml_task tb = { .can_create = 1 }, tk = { .can_create = 1 };
		struct fl_cpu_stats *b = calloc(1, sizeof(*b)), *kk = calloc(1, sizeof(*kk));

		assert_non_null(b);
		assert_non_null(kk);
		ml_drive_bpf(&tb, b, ev, n);
		ml_drive_kmod(&tk, kk, ev, n);
		assert_int_equal(b->hist[FL_H_MMAP_HOLD_W].count, NB);
		assert_int_equal(b->hist[FL_H_MMAP_HOLD_W].max, (1ULL << (NB - 1)) - 1);
		assert_int_equal(b->hist[FL_H_MMAP_HOLD_R].count, NB);
		assert_int_equal(b->hist[FL_H_MMAP_HOLD_R].sum, 0);
		assert_memory_equal(b, kk, sizeof(*b));
		free(b);
		free(kk);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_read_lock),
		cmocka_unit_test(t_downgrade),
		cmocka_unit_test(t_write_then_downgrade),
		cmocka_unit_test(t_killable_fails),
		cmocka_unit_test(t_trylock),
		cmocka_unit_test(t_trylock_fail_first),
		cmocka_unit_test(t_contended),
		cmocka_unit_test(t_unbalanced),
		cmocka_unit_test(t_no_state),
		cmocka_unit_test(t_buckets_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
