/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The traced thread groups: one filter for every skeleton of a collector
 * (the bpf backend's, phases', blame's), ebpf/common.bpf.h's fl_tgids.  A
 * BPF array of a bit per tgid below pid_max, created on the first
 * skeleton's fl_tgid_filter_use() and handed to the others by fd before
 * their load: user space fills one filter, through the mmapped array.
 *
 *	struct fl_tgid_filter f;
 *	fl_tgid_filter_init(&f, tgid);		// traced from the start, or 0
 *	fl_tgid_filter_use(&f, skel->maps.fl_tgids, err, errlen);	// each skeleton
 *	...fl_tgid_filter_add(&f, another)...
 *	fl_tgid_filter_close(&f);	// the skeletons keep the map they hold
 */
#ifndef FAULTLINE_TGID_FILTER_H
#define FAULTLINE_TGID_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct bpf_map;

struct fl_tgid_filter {
	int fd;			/* the map, -1 until a skeleton takes it */
	__u64 *bits;		/* the map, mmapped */
	size_t words;
	unsigned int tgid;	/* traced from the start, 0 = none */
	const char *follower;	/* the skeleton that follows forks, NULL = none yet */
};

/* A filter of TGID (0: none yet) and its children; no map yet. */
void fl_tgid_filter_init(struct fl_tgid_filter *f, unsigned int tgid);

/*
 * Before a skeleton's load: MAP (its fl_tgids) becomes F's map, created and
 * given F's tgid on the first call.  F NULL: the skeleton traces every
 * task; its own MAP is kept to one word.  0, or -1 with the reason in ERR.
 */
int fl_tgid_filter_use(struct fl_tgid_filter *f, struct bpf_map *map, char *err,
		       size_t errlen);

/*
 * Does skeleton WHO ("faultline", "phases", "blame") load the fork
 * follower?  One per filter -- two would race on a child's bit (the BPF
 * side adds it: an atomic OR needs 5.12) -- the first to ask, and it
 * again on a reload (a lower tier).  False without a filter.
 */
bool fl_tgid_filter_follower(struct fl_tgid_filter *f, const char *who);
/* WHO loaded nothing after all: the next skeleton to ask follows forks. */
void fl_tgid_filter_unfollow(struct fl_tgid_filter *f, const char *who);

/* Trace TGID too (and its children from now on).  0, or -1 with errno. */
int fl_tgid_filter_add(struct fl_tgid_filter *f, unsigned int tgid);

/* Trace nothing more: no new fault of any task starts counting. */
void fl_tgid_filter_clear(struct fl_tgid_filter *f);

/* Unmap and close ours (idempotent); the loaded skeletons keep the map. */
void fl_tgid_filter_close(struct fl_tgid_filter *f);

#endif
