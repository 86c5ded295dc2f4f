// SPDX-License-Identifier: GPL-2.0
/* The running kernel's command line and release (kboot.h). */
#include <stdio.h>
#include <string.h>

#include "kboot.h"

const char *fl_cmdline_next(const char **pos, const char *key, size_t *vlen)
{
	size_t kl = strlen(key);
	const char *q = *pos;

	while (q && *q) {
		const char *w;
		size_t n;

		q += strspn(q, " \t\n");
		n = strcspn(q, " \t\n");
		if (n == 2 && !strncmp(q, "--", 2))
			break;
		w = q;
		q += n;
		if (n > kl && w[kl] == '=' && !strncmp(w, key, kl)) {
			*pos = q;
			*vlen = n - kl - 1;
			return w + kl + 1;
		}
	}
	*pos = q;
	return NULL;
}

int fl_cmdline_read(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cmdline", "re");
	int r = -1;

	if (len)
		buf[0] = '\0';
	if (!f)
		return -1;
	if (len && fgets(buf, (int)len, f))
		r = 0;
	fclose(f);
	return r;
}

int fl_release_version(const char *release, unsigned int *major, unsigned int *minor)
{
	unsigned int v[2] = { 0, 0 };
	const char *p = release;

	for (int i = 0; i < 2; i++) {
		if (i && *p++ != '.')
			goto bad;
		if (*p < '0' || *p > '9')
			goto bad;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (v[i] > 100000)
				goto bad;
			v[i] = v[i] * 10 + (unsigned int)(*p - '0');
		}
	}
	*major = v[0];
	*minor = v[1];
	return 0;
bad:
	*major = *minor = 0;
	return -1;
}
