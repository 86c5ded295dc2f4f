// SPDX-License-Identifier: GPL-2.0
/* /proc/vmstat fault-path counters, before and after a window. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errbuf.h"
#include "vmstat.h"

static const char *const prefixes[] = {
	"spf_", "SPF_", "speculative_", "vma_lock_",
};

bool fl_vmstat_wanted(const char *name)
{
	if (!strcmp(name, "pgfault") || !strcmp(name, "pgmajfault"))
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static struct fl_vmstat_entry *find(struct fl_vmstat *v, const char *name)
{
	for (unsigned int i = 0; i < v->n; i++)
		if (!strcmp(v->e[i].name, name))
			return &v->e[i];
	return NULL;
}

int fl_vmstat_parse(struct fl_vmstat *v, const char *text, bool after)
{
	const char *p = text;

	if (!after)
		v->n = 0;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[128], name[FL_NAME_LEN + 1], *end;
		struct fl_vmstat_entry *e;
		unsigned long long val;
		const char *sp;

		if (len == 0)
			goto next;
		if (len >= sizeof(line))
			return -1;
		memcpy(line, p, len);
		line[len] = '\0';
		sp = strchr(line, ' ');
		if (!sp || sp == line)
			return -1;
		if ((size_t)(sp - line) >= sizeof(name)) {
			goto next;	/* too long for the ABI: not one of ours */
		}
		memcpy(name, line, sp - line);
		name[sp - line] = '\0';
		if (!fl_vmstat_wanted(name) || (size_t)(sp - line) >= FL_NAME_LEN)
			goto next;
		errno = 0;
		val = strtoull(sp + 1, &end, 10);
		if (sp[1] < '0' || sp[1] > '9' || errno || end == sp + 1 || *end != '\0')
			return -1;
		e = find(v, name);
		if (!e) {
			struct fl_vmstat_entry *ne = realloc(v->e, (v->n + 1) * sizeof(*ne));

			if (!ne)
				return -1;
			v->e = ne;
			e = &v->e[v->n++];
			memset(e, 0, sizeof(*e));
			strcpy(e->name, name);
			e->before = val;
		}
		if (!after)
			e->before = val;
		e->after = val;
next:
		p = eol ? eol + 1 : p + len;
	}
	return 0;
}

int fl_vmstat_read(struct fl_vmstat *v, const char *path, bool after,
		   char *err, size_t errlen)
{
	char buf[65536];
	size_t len = 0;
	ssize_t n;
	int fd;

	if (!path)
		path = "/proc/vmstat";
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fl_fail(err, errlen, "%s: %s", path, strerror(errno));
	while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fl_fail(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	if (fl_vmstat_parse(v, buf, after))
		return fl_fail(err, errlen, "%s: unexpected format", path);
	return 0;
}

void fl_vmstat_roll(struct fl_vmstat *v)
{
	for (unsigned int i = 0; i < v->n; i++)
		v->e[i].before = v->e[i].after;
}

int fl_vmstat_to_snapshot(const struct fl_vmstat *v, struct fl_vmstat_entry **out,
			  unsigned int *nr)
{
	struct fl_vmstat_entry *c = NULL;

	if (v->n) {
		c = malloc(v->n * sizeof(*c));
		if (!c)
			return -1;
		memcpy(c, v->e, v->n * sizeof(*c));
	}
	free(*out);
	*out = c;
	*nr = v->n;
	return 0;
}

void fl_vmstat_free(struct fl_vmstat *v)
{
	free(v->e);
	v->e = NULL;
	v->n = 0;
}
