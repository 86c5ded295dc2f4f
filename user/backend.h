/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The backend a collector reads (record, serve): chosen and started in one
 * place, in one order -- -b kmod; -b bpf / --tier; else bpf fentry, then
 * faultline.ko if it is loaded, then bpf kprobe (and below) -- saying on
 * stderr, as "faultline CMD: ...", which one and what its tier cannot
 * measure; read as a window (rotate) or since the start; stopped.
 */
#ifndef FAULTLINE_BACKEND_H
#define FAULTLINE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "backend_bpf.h"
#include "snapshot.h"
#include "tgid_filter.h"

struct fl_be_ops;

/* Which backend the collector asks for: -b auto|bpf|kmod (record, serve). */
enum { FL_REC_B_AUTO, FL_REC_B_BPF, FL_REC_B_KMOD };

/* TEXT's lines on stderr, each as "faultline CMD: line" (backend notes). */
static inline void fl_say_lines(const char *cmd, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		fprintf(stderr, "faultline %s: %.*s\n", cmd, n, p);
		p = nl ? nl + 1 : p + n;
	}
}

/* What the collector asks for. */
struct fl_be_req {
	const char *cmd;		/* "record", "serve": the prefix of every line said */
	int backend_req;		/* FL_REC_B_* */
	unsigned int tier_req;		/* FL_TIER_*: only this bpf tier; 0: any */
	bool quiet;			/* notes only on failure */
	bool no_kmod;			/* auto never takes the module (it filters one tgid) */
	bool blame;			/* the module: its holder hooks too (`blame on`) */
	struct fl_bpf_opts bpf;		/* filter, --handle-mm-fault, --mmap-lock, BTF (tier, exact: set here) */
};

/* The backend in use. */
struct fl_be {
	const struct fl_be_ops *ops;	/* NULL: none */
	unsigned int id;			/* FL_BACKEND_*, FL_BACKEND_NONE */
	struct fl_bpf *bpf;			/* the bpf backend's, or NULL */
	struct fl_be_req req;		/* as started */
	struct fl_tgid_filter tgids;	/* !req.bpf.system_wide: what every skeleton traces */
	char kmod_blame_why[160];	/* req.blame and the module refused: why */
};

/*
 * The traced thread groups every skeleton of this collector shares (the
 * bpf backend's, phases', blame's: tgid_filter.h), NULL where system-wide.
 */
struct fl_tgid_filter *fl_be_tgids(struct fl_be *be);

/* Choose and start; every line for the user is said here.  0 or -1. */
int fl_be_start(struct fl_be *be, const struct fl_be_req *req);

/* Can it read windows (the module cannot: its counts run since the start)? */
bool fl_be_can_rotate(const struct fl_be *be);

/*
 * Read the counts: rotate and be->can_rotate: the window since the previous
 * rotation (a new one begins), else since the start.  The module's snapshot
 * gets the traced tgid and the tags saying what it left off by default, as
 * the bpf backend's does.  0 or -1 + err.
 */
int fl_be_read(struct fl_be *be, struct fl_snapshot *s, bool rotate, char *err,
		    size_t errlen);

/*
 * Start counting.  fl_be_start() attaches everything disarmed; the
 * collector reads its baselines (vmstat), then arms: every counter,
 * histogram and the vmstat delta cover one window.  0 or -1 + err.
 */
int fl_be_arm(struct fl_be *be, char *err, size_t errlen);

/*
 * End the last window, before its read: the bpf backend stops counting
 * new faults and lets those in flight reach handle_mm_fault (the module:
 * nothing to do).  Read once more after it, then stop.  0 or -1 + err.
 */
int fl_be_end(struct fl_be *be, char *err, size_t errlen);

/* Detach everything; be is none afterwards (idempotent). */
void fl_be_stop(struct fl_be *be);

#endif
