/* SPDX-License-Identifier: GPL-2.0 */
/* Subcommands of the faultline collector; one file each (user/cmd_*.c). */
#ifndef FAULTLINE_COMMANDS_H
#define FAULTLINE_COMMANDS_H

#include <stdbool.h>

extern bool fl_verbose;

int cmd_record(int argc, char **argv);	/* cmd_record.c */
int cmd_report(int argc, char **argv);	/* cmd_report.c */
int cmd_probe(int argc, char **argv);	/* cmd_probe.c */
int cmd_export(int argc, char **argv);	/* cmd_export.c */
int cmd_compare(int argc, char **argv);	/* cmd_compare.c */
int cmd_plot(int argc, char **argv);	/* cmd_plot.c */
int cmd_tags(int argc, char **argv);	/* cmd_tags.c */
int cmd_check(int argc, char **argv);	/* cmd_check.c */

#endif
