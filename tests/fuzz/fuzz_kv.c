// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz key=value lookup (fl_kv_get, user/kv.c: tags files, sweep.conf).  Input: KEY NUL
 * TEXT, the first byte choosing the caller's buffer size (1..64).  A value
 * found must fit the buffer, hold no newline, and appear in TEXT after
 * "KEY=" on one line (quotes and a CR stripped: a prefix of what follows).
 */
#include "fuzzutil.h"
#include "kv.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *f[2], buf[65], *at;
	const char *v;
	size_t len;

	if (size < 1)
		return 0;
	len = 1 + data[0] % 64;
	if (fz_split(data + 1, size - 1, '\0', f, 2) < 2 || strchr(f[0], '\n')) {
		fz_free_fields(f, 2);
		return 0;
	}
	memset(buf, 'X', sizeof(buf));
	v = fl_kv_get(f[1], f[0], buf, len);
	FZ_ASSERT(buf[len] == 'X');			/* no write past len */
	if (v) {
		size_t kl = strlen(f[0]), vl = strlen(v), found = 0;

		FZ_ASSERT(v == buf);
		FZ_ASSERT(vl < len);
		FZ_ASSERT(!strchr(v, '\n'));
		/* somewhere in TEXT: KEY=[quote]VALUE */
		for (at = strstr(f[1], f[0]); at && !found; at = strstr(at + 1, f[0])) {
			const char *p = at + kl;

			if (*p != '=')
				continue;
			p++;
			if ((*p == '"' || *p == '\'') && strncmp(p, v, vl))
				p++;
			found = !strncmp(p, v, vl);
		}
		FZ_ASSERT(found);
	}
	fz_free_fields(f, 2);
	return 0;
}
