// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the kallsyms parser (fl_ksyms_parse, user/ksyms.c).  Input: the text.
 * On success: symbols sorted by address, by_name a sorted permutation,
 * every name non-empty, at most 255 bytes, without blank or tab, and found
 * again by fl_ksyms_lookup and fl_ksyms_find.
 */
#include "fuzzutil.h"
#include "ksyms.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct fl_ksyms k;
	char err[160];

	if (fl_ksyms_parse(&k, (const char *)data, size, err, sizeof(err))) {
		FZ_ASSERT(k.n == 0 && !k.s && err[0]);
		return 0;
	}
	FZ_ASSERT(k.n > 0 && k.stext && k.etext > k.stext);
	for (size_t i = 0; i < k.n; i++) {
		size_t l = strlen(k.s[i].name);
		long j;

		FZ_ASSERT(l > 0 && l <= 255 && !strpbrk(k.s[i].name, " \t\n["));
		FZ_ASSERT(!i || k.s[i - 1].addr <= k.s[i].addr);
		FZ_ASSERT(k.by_name[i] < k.n);
		FZ_ASSERT(!i || strcmp(k.s[k.by_name[i - 1]].name, k.s[k.by_name[i]].name) <= 0);
		j = fl_ksyms_lookup(&k, k.s[i].name);
		FZ_ASSERT(j >= 0 && !strcmp(k.s[j].name, k.s[i].name) && k.s[j].addr <= k.s[i].addr);
		j = fl_ksyms_find(&k, k.s[i].addr);
		FZ_ASSERT(j >= (long)i && k.s[j].addr == k.s[i].addr);
	}
	fl_ksyms_free(&k);
	return 0;
}
