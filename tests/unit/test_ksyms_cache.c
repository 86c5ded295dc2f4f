// SPDX-License-Identifier: GPL-2.0
/*
 * user/ksyms_cache.c: a parsed table stored and loaded back is the table
 * fl_ksyms_parse built; every file that is not this boot's, not intact or
 * not ours alone is refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "crc32c.h"
#include "ksyms.h"
#include "ksyms_cache.h"

#define BOOT	"0b1d2c3e-4f50-4617-8a9b-0c1d2e3f4a5b"
#define REL	"6.12.0-1-amd64"

/* every data symbol kept, text aliases and a .cold part, a module's */
static const char fixture[] =
	"0000000000000000 A fixed_percpu_data\n"
	"0000000000022340 D pcpu_hot\n"
	"ffffffff81200000 T do_user_addr_fault\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81100000 T handle_mm_fault\n"
	"ffffffff81100900 t handle_mm_fault.cold\n"
	"ffffffff81180000 T lock_mm_and_find_vma\n"
	"ffffffff81600000 T _etext\n"
	"ffffffff82a00000 D page_offset_base\n"
	"ffffffff82a00008 D vmemmap_base\n"
	"ffffffff82b00000 D __per_cpu_offset\n"
	"ffffffff82c00000 b vma_lock_cachep\n"
	"ffffffffc0100000 t zram_read\t[zram]\n";

struct env {
	char dir[64];		/* mkdtemp's */
	char cache[96];		/* dir/c: made by the store */
	struct fl_ksyms k;	/* the fixture, parsed */
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	char err[160];

	if (!e)
		return -1;
	strcpy(e->dir, "/tmp/test_ksyms_cache.XXXXXX");
	if (!mkdtemp(e->dir))
		return -1;
	snprintf(e->cache, sizeof(e->cache), "%s/c", e->dir);
	if (fl_ksyms_parse(&e->k, fixture, strlen(fixture), err, sizeof(err)))
		return -1;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->dir);
	if (system(cmd))
		return -1;
	fl_ksyms_free(&e->k);
	free(e);
	return 0;
}

static void path_of(const struct env *e, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", e->cache, name);
}

static unsigned int mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode & 07777;
}

/* a and b hold the same table */
static void assert_same(const struct fl_ksyms *a, const struct fl_ksyms *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->names_len, b->names_len);
	for (size_t i = 0; i < a->n; i++) {
		assert_true(a->s[i].addr == b->s[i].addr);
		assert_string_equal(a->s[i].name, b->s[i].name);
		assert_int_equal(a->by_name[i], b->by_name[i]);
	}
	assert_true(a->stext == b->stext && a->etext == b->etext);
	assert_true(a->page_offset_base == b->page_offset_base);
	assert_true(a->vmemmap_base == b->vmemmap_base);
	assert_true(a->vma_lock_cachep == b->vma_lock_cachep);
	assert_true(a->preempt_count == b->preempt_count && a->pcpu_hot == b->pcpu_hot);
	assert_true(a->per_cpu_offset == b->per_cpu_offset);
}

static void test_round_trip(void **state)
{
	struct env *e = *state;
	struct fl_ksyms f, d;
	char path[160];
	long i;

	assert_int_equal(fl_ksyms_cache_store_at(&e->k, true, e->cache, BOOT, REL), 0);
	/* the directory made for us alone, each file 0600, nothing else left */
	assert_int_equal(mode_of(e->cache), 0700);
	path_of(e, "ksyms-full", path, sizeof(path));
	assert_int_equal(mode_of(path), 0600);
	path_of(e, "ksyms-data", path, sizeof(path));
	assert_int_equal(mode_of(path), 0600);
	{
		char cmd[160];

		snprintf(cmd, sizeof(cmd), "test $(ls -A '%s' | wc -l) = 2", e->cache);
		assert_int_equal(system(cmd), 0);
	}
	assert_int_equal(fl_ksyms_cache_load_at(&f, true, e->cache, BOOT, REL), 0);
	assert_same(&f, &e->k);
	/* the fixture's own addresses and names, found through the loaded table */
	assert_int_equal(f.n, 7);
	assert_true(f.stext == 0xffffffff81000000ULL && f.etext == 0xffffffff81600000ULL);
	assert_true(f.pcpu_hot == 0x22340ULL && f.preempt_count == 0);
	assert_true(f.page_offset_base == 0xffffffff82a00000ULL);
	assert_true(f.vmemmap_base == 0xffffffff82a00008ULL);
	assert_true(f.vma_lock_cachep == 0xffffffff82c00000ULL);
	assert_true(f.per_cpu_offset == 0xffffffff82b00000ULL);
	i = fl_ksyms_lookup(&f, "lock_mm_and_find_vma");
	assert_true(i >= 0 && f.s[i].addr == 0xffffffff81180000ULL);
	i = fl_ksyms_find(&f, 0xffffffff81100904ULL);
	assert_true(i >= 0);
	assert_string_equal(f.s[i].name, "handle_mm_fault.cold");
	assert_true(fl_ksyms_end(&f, (size_t)fl_ksyms_lookup(&f, "handle_mm_fault")) ==
		    0xffffffff81100900ULL);
	assert_int_equal(fl_ksyms_lookup(&f, "zram_read"), -1);
	fl_ksyms_free(&f);
	assert_null(f.s);
	/* the data file: the same data symbols, no text table */
	assert_int_equal(fl_ksyms_cache_load_at(&d, false, e->cache, BOOT, REL), 0);
	assert_int_equal(d.n, 0);
	assert_null(d.s);
	assert_true(d.pcpu_hot == 0x22340ULL && d.per_cpu_offset == 0xffffffff82b00000ULL);
	assert_true(d.stext == e->k.stext && d.etext == e->k.etext);
	fl_ksyms_free(&d);
}

/* Thousands of symbols: the writer's pieces (1024 entries, 2048 indices) */
static void test_round_trip_large(void **state)
{
	struct env *e = *state;
	size_t cap = 1 << 20, len = 0;
	char *big = malloc(cap), err[160];
	struct fl_ksyms a, b;

	assert_non_null(big);
	len += (size_t)snprintf(big, cap, "%s", fixture);
	for (int i = 0; i < 5000; i++)	/* shuffled addresses, names not in address order */
		len += (size_t)snprintf(big + len, cap - len, "ffffffff8130%04x T fn_%d\n",
					(i * 7919) % 10007, (i * 31) % 5000);
	assert_int_equal(fl_ksyms_parse(&a, big, len, err, sizeof(err)), 0);
	assert_int_equal(a.n, 5007);
	assert_int_equal(fl_ksyms_cache_store_at(&a, true, e->cache, BOOT, REL), 0);
	assert_int_equal(fl_ksyms_cache_load_at(&b, true, e->cache, BOOT, REL), 0);
	assert_same(&a, &b);
	for (int i = 0; i < 5000; i += 499) {
		char name[32];
		long j;

		snprintf(name, sizeof(name), "fn_%d", (i * 31) % 5000);
		j = fl_ksyms_lookup(&b, name);
		assert_true(j >= 0 && b.s[j].addr == 0xffffffff81300000ULL + (i * 7919) % 10007);
	}
	fl_ksyms_free(&a);
	fl_ksyms_free(&b);
	free(big);
}

static void test_wrong_kernel(void **state)
{
	struct env *e = *state;
	struct fl_ksyms k;

	assert_int_equal(fl_ksyms_cache_store_at(&e->k, true, e->cache, BOOT, REL), 0);
	/* another boot: KASLR moved everything */
	assert_int_equal(fl_ksyms_cache_load_at(&k, true, e->cache,
						"0b1d2c3e-4f50-4617-8a9b-0c1d2e3f4a5c", REL), -1);
	assert_int_equal(k.n, 0);
	assert_int_equal(k.stext, 0);
	assert_int_equal(fl_ksyms_cache_load_at(&k, false, e->cache, "", REL), -1);
	assert_int_equal(fl_ksyms_cache_load_at(&k, true, e->cache, BOOT, "6.12.0-2-amd64"), -1);
	assert_int_equal(fl_ksyms_cache_load_at(&k, false, e->cache, BOOT, "6.12.0"), -1);
	/* a missing directory, a missing file */
	assert_int_equal(fl_ksyms_cache_load_at(&k, true, "/nonexistent/dir", BOOT, REL), -1);
	assert_int_equal(fl_ksyms_cache_load_at(&k, true, e->dir, BOOT, REL), -1);
}

/* The stored table loaded again (and freed): 0 or -1 */
static int load_changed(struct env *e, bool text)
{
	struct fl_ksyms k;
	int ret = fl_ksyms_cache_load_at(&k, text, e->cache, BOOT, REL);

	fl_ksyms_free(&k);
	return ret;
}

/* Flip the bits of mask in path's byte at off */
static void flip(const char *path, size_t off, unsigned char mask)
{
	int fd = open(path, O_RDWR);
	unsigned char c;

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &c, 1, (off_t)off), 1);
	c ^= mask;
	assert_int_equal(pwrite(fd, &c, 1, (off_t)off), 1);
	assert_int_equal(close(fd), 0);
}

/* On disk: a byte flipped (crc), a byte cut off, a byte added. */
static void test_damaged_file(void **state)
{
	struct env *e = *state;
	char path[160];
	void *buf;
	size_t len;

	assert_int_equal(fl_ksyms_cache_store_at(&e->k, true, e->cache, BOOT, REL), 0);
	assert_int_equal(fl_ksyms_cache_encode(&e->k, true, BOOT, REL, &buf, &len), 0);
	path_of(e, "ksyms-full", path, sizeof(path));
	/* what was stored is what encode gives */
	{
		FILE *f = fopen(path, "r");
		char *disk = malloc(len + 1);

		assert_non_null(f);
		assert_non_null(disk);
		assert_int_equal(fread(disk, 1, len + 1, f), len);
		assert_memory_equal(disk, buf, len);
		fclose(f);
		free(disk);
	}
	flip(path, len - 3, 0x20);	/* inside a name */
	assert_int_equal(load_changed(e, true), -1);
	flip(path, len - 3, 0x20);
	assert_int_equal(load_changed(e, true), 0);
	/* the last byte is the arena's NUL: cut, then put back as a 0 */
	assert_int_equal(((char *)buf)[len - 1], 0);
	assert_int_equal(truncate(path, (off_t)len - 1), 0);
	assert_int_equal(load_changed(e, true), -1);
	assert_int_equal(truncate(path, (off_t)len), 0);
	assert_int_equal(load_changed(e, true), 0);
	assert_int_equal(truncate(path, (off_t)len + 1), 0);
	assert_int_equal(load_changed(e, true), -1);
	free(buf);
}

/* In memory: every byte flipped, every shorter length. */
static void test_every_byte(void **state)
{
	struct env *e = *state;
	struct fl_ksyms k;
	unsigned char *buf;
	size_t len;

	for (int text = 0; text <= 1; text++) {
		assert_int_equal(fl_ksyms_cache_encode(&e->k, text, BOOT, REL, (void **)&buf, &len), 0);
		assert_int_equal(len, text ? sizeof(struct fl_ksyms_cache_hdr) + 7 * 24 +
					 e->k.names_len : sizeof(struct fl_ksyms_cache_hdr));
		assert_int_equal(fl_ksyms_cache_decode(&k, buf, len, text, BOOT, REL), 0);
		assert_int_equal(k.n, text ? 7 : 0);
		fl_ksyms_free(&k);
		/* the other kind of file is not this one */
		assert_int_equal(fl_ksyms_cache_decode(&k, buf, len, !text, BOOT, REL), -1);
		for (size_t i = 0; i < len; i++) {
			buf[i] ^= 0xff;
			assert_int_equal(fl_ksyms_cache_decode(&k, buf, len, text, BOOT, REL), -1);
			assert_null(k.s);
			assert_int_equal(k.stext, 0);
			buf[i] ^= 0xff;
		}
		for (size_t l = 0; l < len; l++)
			assert_int_equal(fl_ksyms_cache_decode(&k, buf, l, text, BOOT, REL), -1);
		free(buf);
	}
}

/* The file's crc made right again after a change: the checks behind it. */
static void recrc(unsigned char *buf, size_t len)
{
	struct fl_ksyms_cache_hdr h;
	uint32_t crc;

	memcpy(&h, buf, sizeof(h));
	crc = fl_crc32c(0, &h, offsetof(struct fl_ksyms_cache_hdr, crc));
	h.crc = fl_crc32c(crc, buf + sizeof(h), len - sizeof(h));
	memcpy(buf, &h, sizeof(h));
}

static void test_checked_beyond_crc(void **state)
{
	const size_t H = sizeof(struct fl_ksyms_cache_hdr);
	struct env *e = *state;
	struct fl_ksyms_cache_hdr h;
	struct fl_ksyms k;
	unsigned char *buf, *orig;
	size_t len, n = e->k.n;
	uint64_t v;

	assert_int_equal(fl_ksyms_cache_encode(&e->k, true, BOOT, REL, (void **)&orig, &len), 0);
	buf = malloc(len);
	assert_non_null(buf);
#define RESET() memcpy(buf, orig, len)
#define REFUSED() do { recrc(buf, len); \
	assert_int_equal(fl_ksyms_cache_decode(&k, buf, len, true, BOOT, REL), -1); } while (0)
	RESET();
	recrc(buf, len);
	assert_int_equal(fl_ksyms_cache_decode(&k, buf, len, true, BOOT, REL), 0);
	fl_ksyms_free(&k);
	/* a name offset at or past the arena's end, or at its last NUL */
	RESET();
	v = e->k.names_len;
	memcpy(buf + H + 8, &v, 8);
	REFUSED();
	RESET();
	v = e->k.names_len - 1;
	memcpy(buf + H + 8, &v, 8);
	REFUSED();
	/* the arena not NUL-terminated */
	RESET();
	buf[len - 1] = 'x';
	REFUSED();
	/* symbols out of address order: the first past the last */
	RESET();
	v = 0xffffffff81700000ULL;
	memcpy(buf + H, &v, 8);
	REFUSED();
	/* by_name: out of range, a repeat, out of name order */
	RESET();
	v = n;
	memcpy(buf + H + n * 16, &v, 8);
	REFUSED();
	RESET();
	memcpy(buf + H + n * 16 + 8, buf + H + n * 16, 8);
	REFUSED();
	RESET();
	memcpy(buf + H + n * 16, orig + H + n * 16 + 8, 8);
	memcpy(buf + H + n * 16 + 8, orig + H + n * 16, 8);
	REFUSED();
	/* counts past the caps, a header that parse_finish would not accept */
	RESET();
	memcpy(&h, buf, H);
	h.n = FL_KSYMS_CACHE_MAX_N + 1ULL;
	memcpy(buf, &h, H);
	REFUSED();
	RESET();
	memcpy(&h, buf, H);
	h.etext = h.stext;
	memcpy(buf, &h, H);
	REFUSED();
	RESET();
	memcpy(&h, buf, H);
	h.version++;
	memcpy(buf, &h, H);
	REFUSED();
	free(buf);
	free(orig);
#undef RESET
#undef REFUSED
}

/* Not ours alone: group or other access, a link, another owner. */
static void test_not_ours(void **state)
{
	struct env *e = *state;
	char path[160], other[160];
	struct fl_ksyms k;

	assert_int_equal(fl_ksyms_cache_store_at(&e->k, true, e->cache, BOOT, REL), 0);
	path_of(e, "ksyms-full", path, sizeof(path));
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(load_changed(e, true), -1);
	assert_int_equal(chmod(path, 0604), 0);
	assert_int_equal(load_changed(e, true), -1);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(load_changed(e, true), 0);
	/* a symbolic link to a good file */
	snprintf(other, sizeof(other), "%s/elsewhere", e->dir);
	assert_int_equal(rename(path, other), 0);
	assert_int_equal(symlink(other, path), 0);
	assert_int_equal(load_changed(e, true), -1);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rename(other, path), 0);
	assert_int_equal(load_changed(e, true), 0);
	/* the directory group or other writable, or a link to it */
	assert_int_equal(chmod(e->cache, 0770), 0);
	assert_int_equal(load_changed(e, true), -1);
	assert_int_equal(fl_ksyms_cache_store_at(&e->k, true, e->cache, BOOT, REL), -1);
	assert_int_equal(chmod(e->cache, 0702), 0);
	assert_int_equal(load_changed(e, true), -1);
	assert_int_equal(chmod(e->cache, 0700), 0);
	snprintf(other, sizeof(other), "%s/link", e->dir);
	assert_int_equal(symlink(e->cache, other), 0);
	assert_int_equal(fl_ksyms_cache_load_at(&k, true, other, BOOT, REL), -1);
	assert_int_equal(fl_ksyms_cache_store_at(&e->k, true, other, BOOT, REL), -1);
	/* another owner (root can make one) */
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 1, 1), 0);
		assert_int_equal(load_changed(e, true), -1);
		assert_int_equal(chown(path, 0, 0), 0);
		assert_int_equal(chown(e->cache, 1, 1), 0);
		assert_int_equal(load_changed(e, true), -1);
		assert_int_equal(chown(e->cache, 0, 0), 0);
	}
	assert_int_equal(load_changed(e, true), 0);
}

/* A table the parser refused is never stored. */
static void test_no_addresses_not_stored(void **state)
{
	struct env *e = *state;
	struct fl_ksyms z;
	void *buf;
	size_t len;

	memset(&z, 0, sizeof(z));
	assert_int_equal(fl_ksyms_cache_encode(&z, false, BOOT, REL, &buf, &len), -1);
	assert_int_equal(fl_ksyms_cache_store_at(&z, false, e->cache, BOOT, REL), -1);
	/* data symbols alone cannot make a text file */
	z.stext = 0xffffffff81000000ULL;
	z.etext = 0xffffffff81600000ULL;
	assert_int_equal(fl_ksyms_cache_encode(&z, true, BOOT, REL, &buf, &len), -1);
	assert_int_equal(fl_ksyms_cache_encode(&z, false, BOOT, REL, &buf, &len), 0);
	free(buf);
}

/* FAULTLINE_KSYMS_CACHE: the directory, or off. */
static void test_env(void **state)
{
	struct env *e = *state;
	struct fl_ksyms k;
	char path[160];
	struct stat st;

	assert_int_equal(setenv("FAULTLINE_KSYMS_CACHE", "off", 1), 0);
	fl_ksyms_cache_store(&e->k, true);
	assert_int_equal(fl_ksyms_cache_load(&k, true), -1);
	assert_int_equal(setenv("FAULTLINE_KSYMS_CACHE", e->cache, 1), 0);
	path_of(e, "ksyms-full", path, sizeof(path));
	assert_int_equal(stat(path, &st), -1);
	fl_ksyms_cache_store(&e->k, true);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	unsetenv("FAULTLINE_KSYMS_CACHE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_trip_large, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_kernel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_byte, setup, teardown),
		cmocka_unit_test_setup_teardown(test_checked_beyond_crc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_ours, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_addresses_not_stored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_env, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
