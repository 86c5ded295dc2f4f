// SPDX-License-Identifier: GPL-2.0
/* Whole text files and their lines, for the log readers (see textfile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "textfile.h"

#define MAX_LOG_BYTES	(64u << 20)

char *fl_read_text(const char *path, size_t max)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0, n = 0, got;
	char *buf = NULL;

	if (!f)
		return NULL;
	/* grow as needed: max is a limit, not a size to allocate up front */
	do {
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nb;

			if (ncap > max + 1)
				ncap = max + 1;
			if (ncap <= cap)
				break;		/* n == max + 1: too big */
			nb = realloc(buf, ncap + 1);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = ncap;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f) || n > max) {
		free(buf);
		fclose(f);
		errno = n > max ? EFBIG : EIO;
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {	/* binary: not a text file */
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	return buf;
}

/* the next line of *P (without its '\n') into BUF: 1, 0 at the end, -1 too long */
static int text_line(const char **p, char *buf, size_t len)
{
	const char *eol = strchr(*p, '\n');
	size_t n = eol ? (size_t)(eol - *p) : strlen(*p);

	if (!**p)
		return 0;
	if (n >= len)
		return -1;
	memcpy(buf, *p, n);
	buf[n] = '\0';
	*p += n + (eol ? 1 : 0);
	return 1;
}

int fl_log_each_line(const char *path, const char *name,
		     int (*fn)(const char *line, void *arg, char *why, size_t whylen),
		     void *arg, char *err, size_t errlen)
{
	char *text = fl_read_text(path, MAX_LOG_BYTES), line[600], why[200];
	unsigned int lineno = 0;
	const char *p = text;
	int r;

	if (!text)
		return fl_fail(err, errlen, "%s: %s", path, strerror(errno));
	/* strtok_r would merge empty lines: by hand */
	while ((r = text_line(&p, line, sizeof(line)))) {
		lineno++;
		why[0] = '\0';
		if (r < 0 || fn(line, arg, why, sizeof(why)) < 0) {
			fl_fail(err, errlen, "%s:%u: %s", name, lineno, r < 0 ? "line too long" : why);
			free(text);
			return -1;
		}
	}
	free(text);
	return 0;
}
