/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way user space reports an error to its caller: a one-line reason
 * in a caller's buffer, and -1.  Header-only so every file and test that
 * needs it links nothing extra.
 */
#ifndef FAULTLINE_ERRBUF_H
#define FAULTLINE_ERRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

static inline __attribute__((format(printf, 3, 4)))
int fl_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

#endif
