// SPDX-License-Identifier: GPL-2.0
/*
 * TEMPORARY: weak placeholders for subcommands other engineers are writing
 * in their own files (cmd_export.c, cmd_compare.c, cmd_plot.c, cmd_tags.c),
 * so the binary links while they are missing.  A real definition overrides
 * these.  Delete this file once all of them exist.
 */
#include <stdio.h>

#include "commands.h"

#define FL_STUB(name)							\
	__attribute__((weak)) int cmd_##name(int argc, char **argv)	\
	{								\
		(void)argc;						\
		(void)argv;						\
		fprintf(stderr, "faultline " #name ": not built yet\n");	\
		return 2;						\
	}

FL_STUB(export)
FL_STUB(compare)
FL_STUB(plot)
FL_STUB(tags)
