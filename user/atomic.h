/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one atomic file writer: a temp file PATH.tmp.XXXXXX beside PATH,
 * fsynced, mode 0644 (less the umask), renamed over PATH; on any failure the
 * temp file is removed and PATH is left as it was.  Snapshots
 * (fl_snapshot_write_file) and every -o of export, compare and plot
 * (fl_out, export_out.h) write through it.
 */
#ifndef FAULTLINE_ATOMIC_H
#define FAULTLINE_ATOMIC_H

#include <stddef.h>
#include <stdio.h>

struct fl_atomic {
	int fd;		/* the temp file, -1 when none */
	char *path;
	char *tmp;
};

/* Create the temp file; 0, or -1 + err "PATH.tmp.XXXXXX: reason" (errno kept). */
int fl_atomic_open(struct fl_atomic *a, const char *path, char *err, size_t errlen);
/*
 * Finish: F (fdopen'ed on a->fd, or NULL) is flushed and closed, else a->fd
 * closed; WERR is the caller's first write error (errno value, 0 = none).
 * 0 when PATH now has the data; -1 + err "PATH: reason" (temp removed).
 */
int fl_atomic_commit(struct fl_atomic *a, FILE *f, int werr, char *err, size_t errlen);
/*
 * Can PATH be written here: DIR (dirlen bytes) gets the directory the temp
 * file goes into (PATH's, "." for a bare name); 0, or -1 with errno from
 * access(DIR, W_OK).  For commands that check their -o at start.
 */
int fl_atomic_dir_ok(const char *path, char *dir, size_t dirlen);
/* Drop the temp file (F as for commit). */
void fl_atomic_abort(struct fl_atomic *a, FILE *f);

#endif
