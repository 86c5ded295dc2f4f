// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the kallsyms cache's loader (fl_ksyms_cache_decode, user/ksyms_cache.c):
 * the checks that stand between a file in the cache directory and the table
 * the collector trusts.  Input: a cache file; it is decoded with the boot id
 * and release its own header names (else the fuzzer would spend itself on
 * matching them), as a full table and as a data table, as it is and with
 * its crc made right (the checks behind the crc).  On success: the
 * table the parser would build (symbols sorted by address, by_name a sorted
 * permutation, names non-empty and found again), and encoding it gives the
 * input back byte for byte (one file per table).
 */
#include "crc32c.h"
#include "fuzzutil.h"
#include "ksyms.h"
#include "ksyms_cache.h"

/* a header field as a string: its bytes up to the first NUL (or all) */
static void field(char *dst, const unsigned char *src, size_t len)
{
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Decode data as a full (text) or data table; the invariants on success */
static void one(const unsigned char *data, size_t size, bool text, const char *bid,
		const char *rel)
{
	struct fl_ksyms k;
	void *again;
	size_t len;

	if (fl_ksyms_cache_decode(&k, data, size, text, bid, rel)) {
		FZ_ASSERT(!k.s && !k.by_name && !k.names && !k.n && !k.stext);
		return;
	}
	FZ_ASSERT(k.stext && k.etext > k.stext);
	FZ_ASSERT(text ? k.n > 0 && k.s && k.by_name && k.names : !k.n && !k.s);
	for (size_t i = 0; i < k.n; i++) {
		long j;

		FZ_ASSERT(k.s[i].name >= k.names && k.s[i].name < k.names + k.names_len);
		FZ_ASSERT(k.s[i].name[0] &&
			  k.s[i].name + strlen(k.s[i].name) < k.names + k.names_len);
		FZ_ASSERT(!i || k.s[i - 1].addr <= k.s[i].addr);
		FZ_ASSERT(k.by_name[i] < k.n);
		FZ_ASSERT(!i || strcmp(k.s[k.by_name[i - 1]].name, k.s[k.by_name[i]].name) <= 0);
		j = fl_ksyms_lookup(&k, k.s[i].name);
		FZ_ASSERT(j >= 0 && !strcmp(k.s[j].name, k.s[i].name));
		j = fl_ksyms_find(&k, k.s[i].addr);
		FZ_ASSERT(j >= (long)i && k.s[j].addr == k.s[i].addr);
	}
	FZ_ASSERT(!fl_ksyms_cache_encode(&k, text, bid, rel, &again, &len));
	FZ_ASSERT(len == size && !memcmp(again, data, size));
	free(again);
	fl_ksyms_free(&k);
	/* another boot's file is refused */
	FZ_ASSERT(!strcmp(bid, "other-boot") ||
		  fl_ksyms_cache_decode(&k, data, size, text, "other-boot", rel) == -1);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const size_t crc_at = offsetof(struct fl_ksyms_cache_hdr, crc);
	struct fl_ksyms_cache_hdr h;
	char bid[sizeof(h.boot_id) + 1] = "", rel[sizeof(h.release) + 1] = "";
	unsigned char *fixed;
	uint32_t crc;

	one(data, size, false, bid, rel);
	if (size < sizeof(h))
		return 0;
	field(bid, data + offsetof(struct fl_ksyms_cache_hdr, boot_id), sizeof(h.boot_id));
	field(rel, data + offsetof(struct fl_ksyms_cache_hdr, release), sizeof(h.release));
	for (int text = 0; text <= 1; text++)
		one(data, size, text, bid, rel);
	/* and with its crc made right: the checks behind the crc */
	fixed = malloc(size);
	if (!fixed)
		abort();
	memcpy(fixed, data, size);
	crc = fl_crc32c(fl_crc32c(0, fixed, crc_at), fixed + sizeof(h), size - sizeof(h));
	memcpy(fixed + crc_at, &crc, sizeof(crc));
	for (int text = 0; text <= 1; text++)
		one(fixed, size, text, bid, rel);
	free(fixed);
	return 0;
}
