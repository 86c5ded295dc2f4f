// SPDX-License-Identifier: GPL-2.0
/* The kallsyms table's one destructor (ksyms_table.h). */
#include <stdlib.h>
#include <string.h>

#include "ksyms_table.h"

void fl_ksyms_free(struct fl_ksyms *k)
{
	free(k->s);
	free(k->by_name);
	free(k->names);
	memset(k, 0, sizeof(*k));
}
