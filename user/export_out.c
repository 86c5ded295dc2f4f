// SPDX-License-Identifier: GPL-2.0
/* Atomic output files and the small JSON/CSV escaping helpers. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export_out.h"
#include "stats.h"

int fl_out_open(struct fl_out *o, const char *path)
{
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	o->path = strdup(path);
	if (!o->path || asprintf(&o->tmp, "%s.tmp.XXXXXX", path) < 0) {
		fprintf(stderr, "faultline: out of memory\n");
		free(o->path);
		o->path = NULL;
		return -1;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		fprintf(stderr, "faultline: %s: %s\n", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		free(o->path);
		memset(o, 0, sizeof(*o));
		return -1;
	}
	return 0;
}

void fl_out_abort(struct fl_out *o)
{
	if (o->path) {
		fclose(o->f);
		unlink(o->tmp);
		free(o->tmp);
		free(o->path);
	}
	memset(o, 0, sizeof(*o));
}

int fl_out_commit(struct fl_out *o)
{
	int bad;

	if (!o->path) {
		bad = fflush(stdout) || ferror(stdout);
		if (bad)
			fprintf(stderr, "faultline: writing stdout: %s\n", strerror(errno));
		return bad ? -1 : 0;
	}
	mode_t um = umask(0);

	umask(um);
	bad = fflush(o->f) || ferror(o->f) || fchmod(fileno(o->f), 0644 & ~um) ||
	      fsync(fileno(o->f));
	if (fclose(o->f))
		bad = 1;
	if (!bad && !rename(o->tmp, o->path)) {
		free(o->tmp);
		free(o->path);
		memset(o, 0, sizeof(*o));
		return 0;
	}
	fprintf(stderr, "faultline: %s: %s\n", o->path, strerror(errno ? errno : EIO));
	unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return -1;
}

void fl_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void fl_json_num(FILE *f, double v)
{
	char buf[48];

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	fl_fmt_double(buf, sizeof(buf), v);
	fputs(buf, f);
}

void fl_csv_str(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
