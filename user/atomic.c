// SPDX-License-Identifier: GPL-2.0
/* The one atomic file writer (atomic.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "errbuf.h"

static void atomic_free(struct fl_atomic *a)
{
	free(a->tmp);
	free(a->path);
	memset(a, 0, sizeof(*a));
	a->fd = -1;
}

int fl_atomic_open(struct fl_atomic *a, const char *path, char *err, size_t errlen)
{
	int e;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	a->path = strdup(path);
	if (!a->path || asprintf(&a->tmp, "%s.tmp.XXXXXX", path) < 0) {
		a->tmp = NULL;
		atomic_free(a);
		fl_fail(err, errlen, "%s: out of memory", path);
		errno = ENOMEM;
		return -1;
	}
	a->fd = mkostemp(a->tmp, O_CLOEXEC);
	if (a->fd < 0) {
		e = errno;
		fl_fail(err, errlen, "%s: %s", a->tmp, strerror(e));
		atomic_free(a);
		errno = e;
		return -1;
	}
	return 0;
}

static int close_tmp(struct fl_atomic *a, FILE *f)
{
	int r = f ? fclose(f) : close(a->fd);

	a->fd = -1;
	return r;
}

int fl_atomic_commit(struct fl_atomic *a, FILE *f, int werr, char *err, size_t errlen)
{
	mode_t um = umask(0);
	int e = werr;

	umask(um);
	if (!e && f && (fflush(f) || ferror(f)))
		e = errno ? errno : EIO;
	if (!e && (fchmod(a->fd, 0644 & ~um) || fsync(a->fd)))
		e = errno;
	if (close_tmp(a, f) && !e)
		e = errno;
	if (!e && rename(a->tmp, a->path))
		e = errno;
	if (e) {
		fl_fail(err, errlen, "%s: %s", a->path, strerror(e));
		unlink(a->tmp);
	}
	atomic_free(a);
	errno = e;
	return e ? -1 : 0;
}

void fl_atomic_abort(struct fl_atomic *a, FILE *f)
{
	if (a->tmp) {
		if (a->fd >= 0)
			close_tmp(a, f);
		unlink(a->tmp);
	}
	atomic_free(a);
}

int fl_atomic_dir_ok(const char *path, char *dir, size_t dirlen)
{
	char *slash;
	size_t n;

	snprintf(dir, dirlen, "%s", path);
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, dirlen, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	return access(dir, W_OK) ? -1 : 0;
}
