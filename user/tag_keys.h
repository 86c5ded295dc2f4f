/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The keys of a snapshot's tags (FL_SEC_TAGS), one constant each, for the
 * writers and the readers alike.  One style: lower case, '_' inside a
 * word, '.' only between a feature and its field ("phases.unavailable",
 * "blame.writes", "bpf_lost.forks").  The machine tags (tags.h) keep the
 * seed report's names (kernel_version, topology_llc, ...).
 *
 * A key that was once written under another spelling is still read under
 * it: fl_snapshot_tag() tries FL_TAG_RENAMED's old name when the new one is
 * absent, so snapshots recorded before the rename load as they did.
 */
#ifndef FAULTLINE_TAG_KEYS_H
#define FAULTLINE_TAG_KEYS_H

/* a recording's window (cmd_record.c) */
#define FL_TAG_COMMAND			"command"
#define FL_TAG_INTERVAL_INDEX		"interval_index"

/* figures a recording left out for their cost: the value says why */
#define FL_TAG_HMF_OFF			"handle_mm_fault_not_timed"
#define FL_TAG_MMAP_LOCK_OFF		"mmap_lock_not_recorded"

/* --phases / --locks (phases.c) */
#define FL_TAG_PHASES			"phases"
#define FL_TAG_PHASES_UNAVAILABLE	"phases.unavailable"
#define FL_TAG_PHASES_NOTES		"phases.notes"
#define FL_TAG_PHASES_EVENTS		"phases.events"
#define FL_TAG_LOCKS			"locks"
#define FL_TAG_LOCKS_UNAVAILABLE	"locks.unavailable"
#define FL_TAG_LOCKS_NAMING		"locks.naming"
#define FL_TAG_LOCKS_CALLERS		"locks.callers"
#define FL_TAG_LOCKS_CAVEAT		"locks.caveat"

/* --blame (blame_collect.c) */
#define FL_TAG_BLAME			"blame"
#define FL_TAG_BLAME_FAULT_PATH		"blame.fault_path"
#define FL_TAG_BLAME_WRITES		"blame.writes"
#define FL_TAG_BLAME_FALLBACKS		"blame.fallbacks"
#define FL_TAG_BLAME_RECLAIM		"blame.reclaim"
#define FL_TAG_BLAME_EVENTS		"blame.events"

/*
 * The BPF programs' skipped runs (backend_bpf.c fl_bpf_tag_lost): the
 * total, then per skeleton (PREFIX "faultline"), per program (PREFIX
 * "SKEL.PROG") and per figure lost (PREFIX "fault_ends").  The self-cost
 * tags are selfcost.h's FL_SELFCOST_PREFIX ("bpf_run.").
 */
#define FL_TAG_BPF_RECURSION_MISSES	"bpf_recursion_misses"
#define FL_TAG_BPF_SKEL_MISSES_PREFIX	"bpf_recursion_misses."
#define FL_TAG_BPF_PROG_MISSES_PREFIX	"bpf_misses."
#define FL_TAG_BPF_LOST_PREFIX		"bpf_lost."
#define FL_TAG_BPF_LOST_TASK_STATES	FL_TAG_BPF_LOST_PREFIX "task_states"
#define FL_TAG_BPF_PREEMPT_GUARD	"bpf_preempt_guard"

/* machine tags (tags.c) read outside the TAGS tables */
#define FL_TAG_KERNEL_VERSION		"kernel_version"
#define FL_TAG_KERNEL_BUILD		"kernel_build"	/* uname -v */
#define FL_TAG_KERNEL_FILE		"kernel_file"	/* read when a tags file has it */
#define FL_TAG_TOPOLOGY_LLC		"topology_llc"
#define FL_TAG_TOPOLOGY_NODE		"topology_node"

/* { now, before }: the keys written under another name by older builds */
#define FL_TAG_RENAMED {					\
	{ FL_TAG_HMF_OFF, "hmf_not_timed" },			\
	{ FL_TAG_LOCKS_CAVEAT, "locks_caveat" },		\
}

#endif
