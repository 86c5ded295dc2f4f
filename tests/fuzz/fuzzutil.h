/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the fuzz targets: split an input into fields, write
 * files into a per-process scratch directory. */
#ifndef FL_FUZZUTIL_H
#define FL_FUZZUTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A failed invariant: say which, then crash so libFuzzer keeps the input. */
#define FZ_ASSERT(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n",	\
			#cond, __FILE__, __LINE__);			\
		abort();						\
	}								\
} while (0)

/* Copy of data as a NUL-terminated string (embedded NULs stay). */
static inline char *fz_str(const unsigned char *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * Split data on `sep` into at most max fields; field i is a malloc'ed
 * NUL-terminated copy (absent fields are NULL).  Returns the count.
 */
static inline unsigned int fz_split(const unsigned char *data, size_t size, char sep,
				    char **field, unsigned int max)
{
	unsigned int n = 0;
	size_t start = 0;

	for (unsigned int i = 0; i < max; i++)
		field[i] = NULL;
	for (size_t i = 0; i <= size && n < max; i++) {
		if (i == size || data[i] == (unsigned char)sep) {
			field[n++] = fz_str(data + start, i - start);
			start = i + 1;
		}
	}
	return n;
}

static inline void fz_free_fields(char **field, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		free(field[i]);
}

/* One scratch directory per fuzzer process, under $TMPDIR (run-fuzzers
 * points it into build/fuzz/<target>/ and empties it afterwards). */
static inline const char *fz_scratch(void)
{
	static char dir[256];

	if (!dir[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/fl-fuzz-XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(dir))
			abort();
	}
	return dir;
}

/* Write len bytes to DIR/NAME, creating parent directories: 0, or -1 when
 * the tree is in the way (a file where a directory should be, ...). */
static inline int fz_write(const char *dir, const char *name, const void *buf, size_t len)
{
	char path[4096];
	int fd, bad;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 && errno == ENOENT) {
		for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	}
	if (fd < 0)
		return -1;
	bad = len && write(fd, buf, len) != (ssize_t)len;
	if (close(fd) || bad)
		abort();	/* the scratch file system is broken */
	return 0;
}

/* rm -rf PATH (never follows symbolic links). */
static inline void fz_rmtree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	char sub[4096];

	if (lstat(path, &st))
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	if (d) {
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
			fz_rmtree(sub);
		}
		closedir(d);
	}
	rmdir(path);
}

/* A relative path of at most two components, no "..": safe under a scratch dir */
static inline int fz_name_ok(const char *s)
{
	const char *slash = strchr(s, '/');

	return *s && *s != '/' && !strstr(s, "..") && strcmp(s, ".") &&
	       (!slash || (slash[1] && slash[1] != '/' && !strchr(slash + 1, '/') &&
			   slash != s));
}

/*
 * Empty DIR, then write the tree field describes: field[0] holds up to 10
 * file names one a line, field[i + 1] the content of name i.  Names that are
 * unsafe, repeated or blocked by an earlier file are skipped.  names[] (10
 * entries) receives the names written, NULL for skipped ones; returns how
 * many names were listed.
 */
static inline unsigned int fz_tree(const char *dir, char **field, unsigned int nf,
				   char **names)
{
	unsigned int nn = 0;
	char *save = NULL;

	fz_rmtree(dir);
	if (mkdir(dir, 0755))
		abort();
	for (char *t = strtok_r(field[0], "\n", &save); t && nn < 10;
	     t = strtok_r(NULL, "\n", &save)) {
		const char *c = nn + 1 < nf ? field[nn + 1] : "";
		unsigned int k;

		for (k = 0; k < nn && (!names[k] || strcmp(names[k], t)); k++)
			;
		names[nn] = fz_name_ok(t) && k == nn ? t : NULL;
		if (names[nn] && fz_write(dir, t, c, strlen(c)))
			names[nn] = NULL;	/* e.g. "snap" and "snap/x" */
		nn++;
	}
	return nn;
}

#endif
