// SPDX-License-Identifier: GPL-2.0
/* The one tgid filter every skeleton shares (user/tgid_filter.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tgid_filter.h"
#include "errbuf.h"

/* Words of the bitmap: one bit per pid below pid_max (4M at most: 512 KiB). */
static size_t tgid_words(void)
{
	unsigned long pid_max = 4194304;
	FILE *f = fopen("/proc/sys/kernel/pid_max", "re");

	if (f) {
		if (fscanf(f, "%lu", &pid_max) != 1 || pid_max < 1 || pid_max > 4194304)
			pid_max = 4194304;
		fclose(f);
	}
	return (pid_max + 63) / 64;
}

void fl_tgid_filter_init(struct fl_tgid_filter *f, unsigned int tgid)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->tgid = tgid;
}

/* The map, sized from pid_max, mapped, with the first tgid set. */
static int create(struct fl_tgid_filter *f, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = BPF_F_MMAPABLE);
	size_t words = tgid_words();
	void *bits;
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "fl_tgids", sizeof(__u32), sizeof(__u64),
			    words, &o);
	if (fd < 0)
		return fl_fail(err, errlen, "creating the tgid filter: %s", strerror(errno));
	bits = mmap(NULL, words * sizeof(__u64), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (bits == MAP_FAILED) {
		fl_fail(err, errlen, "mapping the tgid filter: %s", strerror(errno));
		close(fd);
		return -1;
	}
	f->fd = fd;
	f->bits = bits;
	f->words = words;
	if (f->tgid && fl_tgid_filter_add(f, f->tgid)) {
		fl_fail(err, errlen, "adding tgid %u to the filter: %s", f->tgid, strerror(errno));
		fl_tgid_filter_close(f);
		return -1;
	}
	return 0;
}

int fl_tgid_filter_use(struct fl_tgid_filter *f, struct bpf_map *map, char *err,
		       size_t errlen)
{
	int e;

	if (!f) {
		/* never looked at: filter_tgid is false */
		if (bpf_map__set_max_entries(map, 1))
			return fl_fail(err, errlen, "cannot size the tgid filter");
		return 0;
	}
	if (f->fd < 0 && create(f, err, errlen))
		return -1;
	e = bpf_map__reuse_fd(map, f->fd);
	if (e)
		return fl_fail(err, errlen, "cannot share the tgid filter: %s", strerror(-e));
	return 0;
}

bool fl_tgid_filter_follower(struct fl_tgid_filter *f, const char *who)
{
	if (!f)
		return false;
	if (!f->follower)
		f->follower = who;
	return !strcmp(f->follower, who);
}

void fl_tgid_filter_unfollow(struct fl_tgid_filter *f, const char *who)
{
	if (f && f->follower && !strcmp(f->follower, who))
		f->follower = NULL;
}

int fl_tgid_filter_add(struct fl_tgid_filter *f, unsigned int tgid)
{
	if (!f->bits || tgid / 64 >= f->words) {
		errno = ERANGE;
		return -1;
	}
	/* the fork follower sets bits of the same words meanwhile */
	__atomic_fetch_or(&f->bits[tgid / 64], 1ULL << (tgid % 64), __ATOMIC_SEQ_CST);
	return 0;
}

void fl_tgid_filter_clear(struct fl_tgid_filter *f)
{
	if (!f->bits)
		return;
	memset(f->bits, 0, f->words * sizeof(*f->bits));
	__sync_synchronize();
}

void fl_tgid_filter_close(struct fl_tgid_filter *f)
{
	/* bits and fd come together: a zeroed filter holds no fd 0 */
	if (!f->bits)
		return;
	munmap(f->bits, f->words * sizeof(*f->bits));
	close(f->fd);
	f->bits = NULL;
	f->fd = -1;
}
