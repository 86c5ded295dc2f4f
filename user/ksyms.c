// SPDX-License-Identifier: GPL-2.0
/* /proc/kallsyms, read once per use (ksyms.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "ksyms.h"

void fl_ksyms_free(struct fl_ksyms *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->s[i].name);
	free(k->s);
	memset(k, 0, sizeof(*k));
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct fl_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Core-kernel text symbols, sorted; 0 on success with addresses visible. */
int fl_ksyms_load(struct fl_ksyms *k, char *err, size_t errlen)
{
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f;

	memset(k, 0, sizeof(*k));
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return fl_fail(err, errlen, "/proc/kallsyms: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (strchr(line, '['))		/* module symbol */
			continue;
		if (!strcmp(name, "_stext"))
			k->stext = addr;
		else if (!strcmp(name, "_etext"))
			k->etext = addr;
		else if (!strcmp(name, "page_offset_base"))
			k->page_offset_base = addr;
		else if (!strcmp(name, "vmemmap_base"))
			k->vmemmap_base = addr;
		else if (!strcmp(name, "vma_lock_cachep"))
			k->vma_lock_cachep = addr;
		if (type != 't' && type != 'T')
			continue;
		if (k->n == k->cap) {
			size_t cap = k->cap ? k->cap * 2 : 65536;
			struct fl_ksym *n = realloc(k->s, cap * sizeof(*n));

			if (!n)
				goto oom;
			k->s = n;
			k->cap = cap;
		}
		k->s[k->n].addr = addr;
		k->s[k->n].name = strdup(name);
		if (!k->s[k->n].name)
			goto oom;
		k->n++;
	}
	fclose(f);
	if (!k->n || !k->stext || k->etext <= k->stext) {
		fl_ksyms_free(k);
		return fl_fail(err, errlen, "/proc/kallsyms shows no addresses (kptr_restrict, not root?)");
	}
	qsort(k->s, k->n, sizeof(*k->s), ksym_cmp);
	return 0;
oom:
	fclose(f);
	fl_ksyms_free(k);
	return fl_fail(err, errlen, "out of memory reading /proc/kallsyms");
}

size_t fl_ksym_base_len(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? (size_t)(dot - name) : strlen(name);
}

long fl_ksyms_find(const struct fl_ksyms *k, unsigned long long addr)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (long)lo - 1 : -1;
}
