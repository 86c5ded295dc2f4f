// SPDX-License-Identifier: GPL-2.0
/* "key=value" lines: snapshot tags, sweep.conf (kv.h). */
#include <string.h>

#include "kv.h"

const char *fl_kv_line(const char *p, const char **start, const char **end)
{
	const char *eol = strchr(p, '\n'), *q = p;

	if (!eol)
		eol = p + strlen(p);
	while (q < eol && (*q == ' ' || *q == '\t'))
		q++;
	if (eol - q > 7 && !strncmp(q, "export ", 7))
		q += 7;
	*start = q;
	*end = eol;
	return *eol ? eol + 1 : eol;
}

const char *fl_kv_get(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = text, *next;

	for (; p && *p; p = next) {
		const char *eol, *q, *v, *e;
		size_t n;

		next = fl_kv_line(p, &q, &eol);
		if ((size_t)(eol - q) > klen && !strncmp(q, key, klen) && q[klen] == '=') {
			v = q + klen + 1;
			e = eol;
			if (e > v && e[-1] == '\r')
				e--;
			if (e - v >= 2 && (*v == '"' || *v == '\'') && e[-1] == *v) {
				v++;
				e--;
			}
			n = (size_t)(e - v);
			if (n >= len)
				n = len - 1;
			memcpy(buf, v, n);
			buf[n] = '\0';
			return buf;
		}
	}
	return NULL;
}
