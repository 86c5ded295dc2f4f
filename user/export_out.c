// SPDX-License-Identifier: GPL-2.0
/* Atomic output files and the small JSON/CSV escaping helpers. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_out.h"
#include "stats.h"

/*
 * Messages name the command and the file the user gave, never the temp
 * file: "faultline export: PATH: cannot write: REASON".  The command's name
 * is program_invocation_short_name ("faultline CMD", set by main.c's
 * dispatcher; a test's own name in the unit tests).
 */
static void out_fail(const char *path, int e)
{
	fprintf(stderr, "%s: %s: cannot write: %s\n", program_invocation_short_name,
		path, strerror(e));
}

int fl_out_open(struct fl_out *o, const char *path)
{
	char err[600];
	FILE *f;

	memset(o, 0, sizeof(*o));
	o->a.fd = -1;
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (fl_atomic_open(&o->a, path, err, sizeof(err))) {	/* err names the temp file */
		out_fail(path, errno);
		return -1;
	}
	f = fdopen(o->a.fd, "w");
	if (!f) {
		out_fail(path, errno);
		fl_atomic_abort(&o->a, NULL);
		return -1;
	}
	o->f = f;
	return 0;
}

void fl_out_abort(struct fl_out *o)
{
	if (o->a.path)
		fl_atomic_abort(&o->a, o->f);
	memset(o, 0, sizeof(*o));
	o->a.fd = -1;
}

int fl_out_commit(struct fl_out *o)
{
	char err[600], *path;
	int bad;

	if (!o->a.path) {
		bad = fflush(stdout) || ferror(stdout);
		if (bad)
			fprintf(stderr, "%s: writing stdout: %s\n", program_invocation_short_name,
				strerror(errno ? errno : EIO));
		return bad ? -1 : 0;
	}
	path = strdup(o->a.path);	/* the commit frees a's */
	bad = fl_atomic_commit(&o->a, o->f, 0, err, sizeof(err));
	if (bad)
		out_fail(path ? path : "output", errno);
	free(path);
	o->f = NULL;
	return bad ? -1 : 0;
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
