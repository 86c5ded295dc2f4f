/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Accounting invariants a snapshot must satisfy whatever the workload: a
 * torn per-CPU read, a lost event or a classification bug breaks one of them.
 */
#ifndef FAULTLINE_INVARIANTS_H
#define FAULTLINE_INVARIANTS_H

#include <stdio.h>
#include "snapshot.h"

/*
 * Check every invariant that the snapshot's tier can support; print one
 * "invariant: PASS|FAIL <what>: ..." line each to out (NULL: silent).
 * Returns the number of violations.
 */
int fl_snapshot_check(const struct fl_snapshot *s, FILE *out);

#endif
