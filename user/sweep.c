// SPDX-License-Identifier: GPL-2.0
/* A sweep's series, as the pft and will-it-scale readers fill them (see sweep.h). */
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

int fl_sweep_add_series(struct fl_sweep *sw, unsigned int threads)
{
	struct fl_pft_series *ns = realloc(sw->series, (sw->nseries + 1) * sizeof(*ns));

	if (!ns)
		return -1;
	sw->series = ns;
	memset(&ns[sw->nseries], 0, sizeof(*ns));
	ns[sw->nseries++].threads = threads;
	return 0;
}

void fl_sweep_free(struct fl_sweep *sw)
{
	for (unsigned int i = 0; i < sw->nseries; i++) {
		free(sw->series[i].flt_cpu);
		free(sw->series[i].flt_wsec);
		free(sw->series[i].ops);
		for (unsigned int k = 0; k < sw->series[i].nsnaps; k++)
			free(sw->series[i].snaps[k]);
		free(sw->series[i].snaps);
	}
	free(sw->series);
	free(sw->tags);
	free(sw->conf);
	free(sw->dir);
	free(sw->logdir);
	memset(sw, 0, sizeof(*sw));
}

const struct fl_pft_series *fl_sweep_series(const struct fl_sweep *sw, unsigned int threads)
{
	for (unsigned int i = 0; i < sw->nseries; i++)
		if (sw->series[i].threads == threads)
			return &sw->series[i];
	return NULL;
}
