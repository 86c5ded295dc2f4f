/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel fields, enum values and data symbols faultline reads, each
 * with every name it has had (issue 26: "hooks that survive renames"), in
 * one table: `probe` prints which name this kernel has, which one is used,
 * and why a figure is unavailable where none is.  The BPF programs carry
 * the same alternatives as CO-RE flavours (ebpf/NAME.bpf.c); this table is
 * what a user reads, and its unit test holds it to known kernels' BTF.
 */
#ifndef FAULTLINE_KFIELDS_H
#define FAULTLINE_KFIELDS_H

#include <stdbool.h>
#include <stdio.h>

struct btf;
struct fl_ksyms;

enum fl_kfield_kind {
	FL_KF_MEMBER,	/* "struct.member" in BTF (also inside anonymous members) */
	FL_KF_ENUM,	/* an enumerator in BTF */
	FL_KF_KSYM,	/* a data symbol of /proc/kallsyms (struct fl_ksyms) */
};

struct fl_kfield_alt {
	enum fl_kfield_kind kind;
	const char *name;
	const char *kernels;	/* where it exists, e.g. "6.4-6.14" */
	const char *unused;	/* present but not usable: why (NULL: used) */
};

#define FL_KFIELD_ALTS 3
struct fl_kfield {
	const char *what;	/* the figure it serves */
	struct fl_kfield_alt alt[FL_KFIELD_ALTS];	/* newest first */
	const char *none;	/* what is unavailable where no name exists */
	/* where no name exists but BTF has this function: the value is built in */
	const char *builtin_if[2];
	const char *builtin;	/* ... and what faultline uses then */
};

extern const struct fl_kfield fl_kfields[];
extern const unsigned int fl_kfields_n;

/* Whether ALT exists in BTF / the data symbols K (either may be NULL). */
bool fl_kfield_present(const struct fl_kfield_alt *alt, const struct btf *btf,
		       const struct fl_ksyms *k);
/*
 * Index of the alternative faultline uses for ROW here (the first present
 * one that is usable), or -1: the figure is unavailable (row->none, or the
 * present alternative's ->unused).
 */
int fl_kfield_used(const struct fl_kfield *row, const struct btf *btf, const struct fl_ksyms *k);
/* The table as `probe` prints it. */
void fl_kfields_print(FILE *f, const struct btf *btf, const struct fl_ksyms *k);

#endif
