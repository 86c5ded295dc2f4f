/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Blame's model (blame_model.c): the FL_SEC_BLAME rows and the
 * FL_SEC_BLAME_TOTAL of a snapshot (include/faultline/blame.h) and what
 * they say.  Read by the collector, the report, the export and compare.
 */
#ifndef FAULTLINE_BLAME_MODEL_H
#define FAULTLINE_BLAME_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include <faultline/blame.h>
#include "snapshot.h"

#define FL_BLAME_TOP_ROWS	32	/* rows a snapshot keeps, by wait caused */

const struct fl_blame_row *fl_snapshot_blame(const struct fl_snapshot *s, unsigned int *nr);
const struct fl_blame_total *fl_snapshot_blame_total(const struct fl_snapshot *s);

/*
 * Kind of a holder from its symbolised frames (innermost first) and sysnr:
 * a syscall frame makes FL_BLAME_SYSCALL; BL_SYS_NONE a kernel thread.
 */
unsigned int fl_blame_kind(unsigned int sysnr, const char (*frames)[FL_SYM_LEN],
			   unsigned int nframes);
/* "syscall", "kthread", "other" ("?" for anything else: a hostile file). */
const char *fl_blame_kind_name(unsigned int kind);
/* Is this kernel frame part of the tracing machinery (dropped from rows)? */
bool fl_blame_frame_skipped(const char *sym);

/* x86_64 syscall name of nr ("mprotect"), or NULL when not in the table. */
const char *fl_syscall_name(unsigned int nr);
/* What the row's holder was doing: "mprotect()", "syscall 999", "kthread", "fault path". */
void fl_blame_what(const struct fl_blame_row *r, char *buf, size_t len);
/* Frame i / the comm of a row read from a file, NUL-terminated (they may not be). */
void fl_blame_frame(const struct fl_blame_row *r, unsigned int i, char out[FL_SYM_LEN + 1]);
void fl_blame_comm(const struct fl_blame_row *r, char out[BL_COMM_LEN + 1]);
/* The row's frames, innermost first, joined by sep (empty when none). */
void fl_blame_frames_str(const struct fl_blame_row *r, char *buf, size_t len, const char *sep);

/* Why lockless-path fallbacks are not in s ("unavailable (...)"), NULL if counted. */
const char *fl_blame_fb_unavail(const struct fl_snapshot *s);
/* Name of overflow counter i of struct fl_blame_total.misc (NULL: unused slot). */
const char *fl_blame_event_name(unsigned int i);

#endif
