/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FAULTLINE_INIT_ON_ALLOC_H
#define FAULTLINE_INIT_ON_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Does the running kernel zero user pages inside the page allocator
 * (post_alloc_hook -> kernel_init_pages -> clear_page), where no phase hook
 * can time it apart from alloc?  From 6.13 (user_alloc_needs_zeroing() in
 * include/linux/mm.h) the fault path skips folio_zero_user() and
 * clear_user_highpage() when init_on_alloc is on: the allocator has zeroed
 * the page already.  Before 6.13 folio_zero_user() / clear_huge_page()
 * zeroes every huge page whatever init_on_alloc says.
 *
 * init_on_alloc: /proc/cmdline's last init_on_alloc= decides, else the
 * running kernel's CONFIG_INIT_ON_ALLOC_DEFAULT_ON, from
 * /boot/config-$(uname -r) or /proc/config.gz.
 *
 * Returns 1 (yes), 0 (no: before 6.13, or init_on_alloc off) or -1
 * (unknown: a 6.13+ kernel whose init_on_alloc cannot be read); SRC, if
 * given, says what decided (e.g. "init_on_alloc=1 on the command line").
 * Read once.
 */
int fl_alloc_zeroes_user_pages(char *src, size_t len);

/*
 * The decision from given inputs (the unit tests): RELEASE as uname -r,
 * CMDLINE as /proc/cmdline (NULL: unreadable), CONFIGS the config files to
 * try in order (plain or gzip; NULL-terminated).
 */
int fl_alloc_zeroes_user_pages_from(const char *release, const char *cmdline,
				    const char *const *configs, char *src, size_t len);

#endif
