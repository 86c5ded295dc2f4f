/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel's boot facts, parsed in one place: its command line
 * (init_on_alloc=, preempt=) and its release's major.minor (tags, the
 * zeroing and preemption models).
 */
#ifndef FAULTLINE_KBOOT_H
#define FAULTLINE_KBOOT_H

#include <stddef.h>

/*
 * The next KEY=VALUE word of a command line from *pos (start it at the
 * line), before any "--" (the rest is init's): its value, not
 * NUL-terminated, *vlen bytes; *pos moves past it.  NULL when there is
 * none.  The kernel applies each occurrence and ignores an invalid one, so
 * a caller keeps the last value it accepts.
 */
const char *fl_cmdline_next(const char **pos, const char *key, size_t *vlen);
/* /proc/cmdline into buf: 0, or -1 unreadable (buf then ""). */
int fl_cmdline_read(char *buf, size_t len);
/*
 * "MAJOR.MINOR[...]" of a release (uname -r) into *major, *minor: 0, or -1
 * when it does not start that way (then both 0).
 */
int fl_release_version(const char *release, unsigned int *major, unsigned int *minor);

#endif /* FAULTLINE_KBOOT_H */
