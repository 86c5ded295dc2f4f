/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Holder attribution (`record --blame`, `report --blame`): who held
 * mmap_lock for write while faults waited.  A separate BPF skeleton
 * (ebpf/blame.bpf.c) beside the main backend; Documentation/blame.rst.
 *
 *	struct fl_blame_opts o = { .btf = btf, .tgid = pid_or_0 };
 *	struct fl_blame *b = fl_blame_open(&o, err, sizeof(err));
 *	...workload runs...
 *	fl_blame_read(b, &snap, err, sizeof(err));	// before writing snap
 *	fl_blame_close(b);
 *
 * fl_blame_open() fails (NULL) only for bad arguments or out of memory; a
 * kernel that cannot run it still gets a handle whose snapshot says
 * "blame=unavailable (why)", never zero figures.
 *
 * What fl_blame_read() adds (cumulative since open; replaces sections of
 * the same types):
 *   FL_SEC_BLAME        struct fl_blame_row per call site, by wait caused (top BL_TOP_ROWS)
 *   FL_SEC_BLAME_TOTAL  one struct fl_blame_total
 *   tags: blame=tracepoint|faultline.ko|unavailable (why)
 *         blame.fault_path=<functions a fault's wait is recognised by>|none (why)
 *         blame.reclaim=tracepoint|unavailable (why)
 *         blame.fallbacks=tracepoint|unavailable (why): lockless-path fallbacks
 *         blame.events=sites_full:N holders_full:N stack_fail:N nostate:N nested:N
 *                      nofault:N self:N
 */
#ifndef FAULTLINE_BLAME_USER_H
#define FAULTLINE_BLAME_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <faultline/blame.h>
#include "snapshot.h"

#define BL_TOP_ROWS	32

struct fl_blame;
struct btf;

struct fl_blame_opts {
	const struct btf *btf;	/* the kernel's BTF (read, not kept); NULL: nothing loads */
	unsigned int tgid;	/* trace this thread group and its children; 0 = every task */
};

struct fl_blame *fl_blame_open(const struct fl_blame_opts *o, char *err, size_t errlen);
/*
 * -b kmod: faultline.ko's own holder hooks (`blame on`, module/blame.c); its
 * snapshot brings the rows, fl_blame_read() makes them the same sections.
 * why: the module refused `blame on` (the handle says unavailable), or NULL.
 */
struct fl_blame *fl_blame_open_kmod(const char *why, char *err, size_t errlen);
/* One line: "blame: tracepoint (...)" or "blame: unavailable (why)". */
const char *fl_blame_describe(const struct fl_blame *b);
int fl_blame_read(struct fl_blame *b, struct fl_snapshot *s, char *err, size_t errlen);
void fl_blame_close(struct fl_blame *b);

/* ---- the rows (user/blame_rows.c) --------------------------------------- */

/* Rows being gathered: sites with the same syscall, comm and frames are one row. */
struct fl_blame_rows {
	struct fl_blame_row *v;
	unsigned int nr, cap;
};
/* Add one (identity and figures), merged into its site's row; 0 or -1 (out of memory). */
int fl_blame_rows_add(struct fl_blame_rows *rs, const struct fl_blame_row *one);
/* The top BL_TOP_ROWS, by wait caused, as the FL_SEC_BLAME section; frees rs.  0 or -1. */
int fl_blame_rows_put(struct fl_blame_rows *rs, struct fl_snapshot *s, char *err, size_t errlen);
/* Remove the FL_SEC_BLAME and FL_SEC_BLAME_TOTAL sections. */
void fl_blame_drop_sections(struct fl_snapshot *s);
/*
 * The sections faultline.ko's snapshot brought (module/blame.c: a row per
 * site, frames symbolised there) made the BPF skeleton's: merged, the
 * holder's kind set, the top rows; *t its total (fb_seen: none).  0; 1 when
 * s has no module rows (its sections dropped); -1 + err.
 */
int fl_blame_kmod_rows(struct fl_snapshot *s, struct fl_blame_total *t, char *err,
		       size_t errlen);

/* ---- reading it back (user/blame_report.c) ----------------------------- */

/* x86_64 syscall name of nr ("mprotect"), or NULL when not in the table. */
const char *fl_syscall_name(unsigned int nr);
/* What the row's holder was doing: "mprotect()", "syscall 999", "kthread", "fault path". */
void fl_blame_what(const struct fl_blame_row *r, char *buf, size_t len);
/* Why lockless-path fallbacks are not in s ("unavailable (...)"), NULL if counted. */
const char *fl_blame_fb_unavail(const struct fl_snapshot *s);
/*
 * Kind of a holder from its symbolised frames (innermost first) and sysnr:
 * a syscall frame makes FL_BLAME_SYSCALL; BL_SYS_NONE a kernel thread.
 */
unsigned int fl_blame_kind(unsigned int sysnr, const char (*frames)[FL_SYM_LEN],
			   unsigned int nframes);
/* Is this kernel frame part of the tracing machinery (dropped from rows)? */
bool fl_blame_frame_skipped(const char *sym);

/* Frame i / the comm of a row read from a file, NUL-terminated (they may not be). */
void fl_blame_frame(const struct fl_blame_row *r, unsigned int i, char out[FL_SYM_LEN + 1]);
void fl_blame_comm(const struct fl_blame_row *r, char out[BL_COMM_LEN + 1]);

/* The row's frames, innermost first, joined by sep (empty when none). */
void fl_blame_frames_str(const struct fl_blame_row *r, char *buf, size_t len, const char *sep);
/* "syscall", "kthread", "other" ("?" for anything else: a hostile file). */
const char *fl_blame_kind_name(unsigned int kind);
/* Name of overflow counter i of struct fl_blame_total.misc (NULL: unused slot). */
const char *fl_blame_event_name(unsigned int i);

const struct fl_blame_row *fl_snapshot_blame(const struct fl_snapshot *s, unsigned int *nr);
const struct fl_blame_total *fl_snapshot_blame_total(const struct fl_snapshot *s);

/* `report --blame`: the top holders.  0, or -1 on an output error. */
int fl_report_blame(const struct fl_snapshot *s, FILE *out);
/*
 * `report --blame --raw`, key=value:
 *   blame=<tag>  blame.waits= blame.wait_ns= blame.blamed_waits= blame.blamed_wait_ns=
 *   blame.rows=  blame.event.<name>=
 *   blame.row.<i>.what= .sysnr= .kind= .tid= .comm= .waits= .wait_ns= .wait_p99_ns=
 *     .behind_queued= .holds= .hold_ns= .hold_p50_ns= .hold_p99_ns= .own_wait_ns=
 *     .oncpu_ns= .runnable_ns= .sleep_ns= .reclaim_ns= .frames=<f0<f1<...>
 */
int fl_report_blame_raw(const struct fl_snapshot *s, FILE *out);
/* export json: `,"blame":{...}` for a snapshot that has the sections, else nothing.
 * export csv (by "blame" rows) is export_fmt.c's, on the readers above. */
void fl_blame_json(FILE *f, const struct fl_snapshot *s);


#endif
