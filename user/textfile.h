/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole text files and their lines: what the log readers (pftlog.c,
 * wislog.c) read their logs, tags and sweep.conf with.
 */
#ifndef FAULTLINE_TEXTFILE_H
#define FAULTLINE_TEXTFILE_H

#include <stddef.h>

/* Whole file as a NUL-terminated string (NULL + errno on failure). */
char *fl_read_text(const char *path, size_t max);

/*
 * Each line of the log at PATH (NAME in messages; empty lines too) to
 * FN(line, ARG, why): a return < 0 stops with "NAME:LINE: why".  0, or -1
 * with err (also for a line longer than 599 bytes).  The log readers'.
 */
int fl_log_each_line(const char *path, const char *name,
		     int (*fn)(const char *line, void *arg, char *why, size_t whylen),
		     void *arg, char *err, size_t errlen);

#endif
