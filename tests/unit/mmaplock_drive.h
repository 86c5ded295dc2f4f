/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drives include/faultline/mmaplock.h the way both callers do: the state is
 * created for the events that open something (start, acquired with success,
 * contention_begin) and only looked up for the others, and may be missing
 * (task storage or slot not available: NULL).  Built twice by
 * test_mmaplock: with hist.h's fl_hist_add() (the BPF programs) and with the
 * module's one-bsr bucket (mmaplock_kside.c).
 */
#ifndef FL_TEST_MMAPLOCK_DRIVE_H
#define FL_TEST_MMAPLOCK_DRIVE_H

#include <stddef.h>
/* FL_HIST_RECORD, where set, is set before this first inclusion. */
#include <faultline/mmaplock.h>

enum ml_ev_kind { ML_START, ML_ACQ, ML_REL, ML_CB, ML_CE };

struct ml_ev {
	enum ml_ev_kind kind;
	int write;
	int success;		/* ML_ACQ */
	fl_u64 now;
};

/* One task as the callers see it: state once created, or none to be had. */
struct ml_task {
	int has_state;
	int can_create;		/* 0: task storage / slot creation fails */
	struct fl_mmap_state ms;
};

void ml_drive_bpf(struct ml_task *t, struct fl_cpu_stats *cs, const struct ml_ev *ev,
		  unsigned int n);
void ml_drive_kmod(struct ml_task *t, struct fl_cpu_stats *cs, const struct ml_ev *ev,
		   unsigned int n);

#endif

/* The driver body, included once per build with its FL_HIST_RECORD. */
#ifdef ML_DRIVE_NAME

static struct fl_mmap_state *ml_state(struct ml_task *t, int create)
{
	if (t->has_state)
		return &t->ms;
	if (!create || !t->can_create)
		return NULL;
	fl_mmap_reset(&t->ms);
	t->has_state = 1;
	return &t->ms;
}

void ML_DRIVE_NAME(struct ml_task *t, struct fl_cpu_stats *cs, const struct ml_ev *ev,
		   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct ml_ev *e = &ev[i];

		switch (e->kind) {
		case ML_START:
			fl_mmap_ev_start(ml_state(t, 1), e->now);
			break;
		case ML_ACQ:
			fl_mmap_ev_acquired(ml_state(t, e->success), cs, e->write, e->success,
					    e->now);
			break;
		case ML_REL:
			fl_mmap_ev_released(ml_state(t, 0), cs, e->write, e->now);
			break;
		case ML_CB:
			fl_mmap_ev_contend_begin(ml_state(t, 1), cs, e->now);
			break;
		case ML_CE:
			fl_mmap_ev_contend_end(ml_state(t, 0), cs, e->now);
			break;
		}
	}
}
#endif
