/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A line in tracefs's trace_marker, for a scenario that reads a kernel
 * trace beside the helper (tests/integration/blame.inc, blame_trace_split):
 * it counts the helper's calls from here, not its setup.  No tracefs: no
 * line, and nothing else changes.
 */
#ifndef FL_HELPERS_TRMARK_H
#define FL_HELPERS_TRMARK_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void trace_mark(const char *msg)
{
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, msg, strlen(msg)) < 0)
			perror("trace_marker");
		close(fd);
	}
}

#endif
