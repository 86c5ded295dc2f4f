/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-task test's inputs (include/faultline/intask.h), set the same way
 * in every skeleton's rodata before its load: the preempt_count mask of
 * the kernel's layout and the per-CPU addresses it is read through.
 */
#ifndef FAULTLINE_INTASK_SET_H
#define FAULTLINE_INTASK_SET_H

#include <faultline/classify.h>
#include "ksyms.h"

#define FL_INTASK_SET(ro, layout)						\
	do {									\
		const struct fl_ksyms *k_ = fl_ksyms_data(NULL, 0);		\
										\
		(ro)->not_task_mask = fl_not_task_mask(layout);			\
		(ro)->ksym_preempt_count = k_ ? k_->preempt_count : 0;		\
		(ro)->ksym_pcpu_hot = k_ ? k_->pcpu_hot : 0;			\
		(ro)->ksym_per_cpu_offset = k_ ? k_->per_cpu_offset : 0;	\
	} while (0)

#endif
