/* SPDX-License-Identifier: GPL-2.0 */
/* `report --blame` (blame_report.c), on the model of blame_model.h. */
#ifndef FAULTLINE_BLAME_REPORT_H
#define FAULTLINE_BLAME_REPORT_H

#include <stdio.h>

#include "snapshot.h"

/* `report --blame`: the top holders.  0, or -1 on an output error. */
int fl_report_blame(const struct fl_snapshot *s, FILE *out);
/*
 * `report --blame --raw`, key=value:
 *   blame=<tag>  blame.waits= blame.wait_ns= blame.blamed_waits= blame.blamed_wait_ns=
 *   blame.rows=  blame.event.<name>=
 *   blame.row.<i>.what= .sysnr= .kind= .tid= .comm= .waits= .wait_ns= .wait_p99_ns=
 *     .behind_queued= .holds= .hold_ns= .hold_p50_ns= .hold_p99_ns= .own_wait_ns=
 *     .oncpu_ns= .runnable_ns= .sleep_ns= .reclaim_ns= .frames=<f0<f1<...>
 */
int fl_report_blame_raw(const struct fl_snapshot *s, FILE *out);

#endif
