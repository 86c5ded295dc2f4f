// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the kernel command line and release parsers (user/kboot.c).  Input:
 * a byte choosing the key, then the text.  Every value fl_cmdline_next()
 * returns lies in the text after "KEY=" at the start of a word, holds no
 * separator, comes after the previous one, and no "--" word precedes it.
 * fl_release_version() of the same text agrees with strtoul's reading of
 * its leading "DIGITS.DIGITS".
 */
#include <ctype.h>
#include <stdlib.h>

#include "fuzzutil.h"
#include "kboot.h"

static const char *const keys[] = { "preempt", "init_on_alloc", "a", "x=y" };

static int sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char *key, *pos, *v, *prev = NULL;
	unsigned int ma, mi;
	size_t n, kl;
	char *t;

	if (size < 1)
		return 0;
	key = keys[data[0] % 4];
	kl = strlen(key);
	t = malloc(size);
	if (!t)
		return 0;
	memcpy(t, data + 1, size - 1);
	t[size - 1] = '\0';
	pos = t;
	while ((v = fl_cmdline_next(&pos, key, &n))) {
		const char *w = v - kl - 1;

		FZ_ASSERT(w >= t && v + n <= t + strlen(t));
		FZ_ASSERT(!strncmp(w, key, kl) && w[kl] == '=');
		FZ_ASSERT(w == t || sep(w[-1]));
		FZ_ASSERT(!v[n] || sep(v[n]));
		for (size_t i = 0; i < n; i++)
			FZ_ASSERT(!sep(v[i]));
		FZ_ASSERT(!prev || v > prev);
		FZ_ASSERT(pos >= v + n);
		/* no "--" word before it */
		for (const char *q = t; q + 2 <= w; q++)
			FZ_ASSERT(!(q[0] == '-' && q[1] == '-' && (q == t || sep(q[-1])) && (sep(q[2]) || !q[2])));
		prev = v;
	}
	if (!fl_release_version(t, &ma, &mi)) {
		char *e;
		unsigned long a = strtoul(t, &e, 10), b;

		FZ_ASSERT(isdigit((unsigned char)t[0]) && *e == '.' && isdigit((unsigned char)e[1]));
		b = strtoul(e + 1, NULL, 10);
		FZ_ASSERT(a == ma && b == mi);
	} else {
		FZ_ASSERT(ma == 0 && mi == 0);
	}
	free(t);
	return 0;
}
