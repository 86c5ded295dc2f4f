/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module backend: talks to faultline.ko through debugfs faultline/
 * (Documentation/module.rst).  All return 0 / 1 as documented or -1 with a
 * one-line reason in err.
 */
#ifndef FAULTLINE_BACKEND_KMOD_H
#define FAULTLINE_BACKEND_KMOD_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

/* Where the module's files are; FAULTLINE_KMOD_DIR overrides (tests). */
#define FL_KMOD_DIR	"/sys/kernel/debug/faultline"

/* 1 if faultline.ko's debugfs directory is there (debugfs is mounted if needed), else 0. */
int fl_kmod_loaded(void);
/* disable, set the tgid filter (0 = system-wide); counting starts at fl_kmod_arm. */
int fl_kmod_start(unsigned int tgid, char *err, size_t errlen);
/* reset, enable: the window starts here. */
int fl_kmod_arm(char *err, size_t errlen);
/*
 * mmap_lock tracepoints for the next recording (before fl_kmod_start): on =
 * armed even where the module holds them off by default (memcg_path in the
 * prototype and no lockless fault path, e.g. 6.1: the path string is built
 * per event and every fault takes mmap_lock); off = that default ("auto").
 */
int fl_kmod_mmap_lock(bool on, char *err, size_t errlen);
int fl_kmod_time_hmf(bool on, char *err, size_t errlen);
/* The module's holder hooks for the next recording (module/blame.c). */
int fl_kmod_blame(bool on, char *err, size_t errlen);
/* Read and parse one snapshot (counts since fl_kmod_start); free with fl_snapshot_free. */
int fl_kmod_read(struct fl_snapshot *s, char *err, size_t errlen);
/* Stop counting (the module stays loaded; its counts stay readable). */
void fl_kmod_stop(void);

#endif
