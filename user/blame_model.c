// SPDX-License-Identifier: GPL-2.0
/*
 * Blame's model, as the snapshot keeps it (user/blame_model.h): what a
 * holder row says (its kind, its syscall, its frames, the tracing frames
 * dropped from them), the sections' accessors and the names of its
 * counters.  The collector (blame_collect.c, blame_rows.c), the report
 * (blame_report.c), the export and compare read blame through it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blame_model.h"

/* x86_64 syscalls that take mmap_lock for write (and a few neighbours). */
static const struct {
	unsigned int nr;
	const char *name;
} sys_x86_64[] = {
	{ 0, "read" }, { 1, "write" }, { 9, "mmap" }, { 10, "mprotect" }, { 11, "munmap" },
	{ 12, "brk" }, { 16, "ioctl" }, { 25, "mremap" }, { 26, "msync" }, { 27, "mincore" },
	{ 28, "madvise" }, { 30, "shmat" }, { 31, "shmctl" }, { 56, "clone" }, { 57, "fork" },
	{ 58, "vfork" }, { 59, "execve" }, { 60, "exit" }, { 67, "shmdt" }, { 149, "mlock" },
	{ 150, "munlock" }, { 151, "mlockall" }, { 152, "munlockall" }, { 157, "prctl" },
	{ 216, "remap_file_pages" }, { 231, "exit_group" }, { 237, "mbind" },
	{ 256, "migrate_pages" }, { 279, "move_pages" }, { 322, "execveat" },
	{ 323, "userfaultfd" }, { 325, "mlock2" }, { 329, "pkey_mprotect" },
	{ 435, "clone3" }, { 440, "process_madvise" }, { 450, "set_mempolicy_home_node" },
	{ 462, "mseal" },
};

const char *fl_syscall_name(unsigned int nr)
{
	for (size_t i = 0; i < sizeof(sys_x86_64) / sizeof(sys_x86_64[0]); i++)
		if (sys_x86_64[i].nr == nr)
			return sys_x86_64[i].name;
	return NULL;
}

bool fl_blame_frame_skipped(const char *sym)
{
	return bl_frame_skipped(sym);
}

unsigned int fl_blame_kind(unsigned int sysnr, const char (*frames)[FL_SYM_LEN],
			   unsigned int nframes)
{
	if (sysnr == BL_SYS_NONE)
		return FL_BLAME_KTHREAD;
	for (unsigned int i = 0; i < nframes && i < FL_BLAME_FRAMES; i++)
		if (!strncmp(frames[i], "do_syscall_64", FL_SYM_LEN) ||
		    !strncmp(frames[i], "__x64_sys_", 10) || !strncmp(frames[i], "__do_sys_", 9))
			return FL_BLAME_SYSCALL;
	/* no frames at all: trust the syscall number (said by kind in --raw) */
	return nframes ? FL_BLAME_OTHER : FL_BLAME_SYSCALL;
}

void fl_blame_what(const struct fl_blame_row *r, char *buf, size_t len)
{
	const char *n;

	switch (r->kind) {
	case FL_BLAME_KTHREAD:
		snprintf(buf, len, "kernel thread");
		return;
	case FL_BLAME_OTHER:
		snprintf(buf, len, "%.*s (not in a syscall)", FL_SYM_LEN,
			 r->nframes ? r->frames[0] : "?");
		return;
	}
	n = fl_syscall_name(r->sysnr);
	if (n)
		snprintf(buf, len, "%s()", n);
	else
		snprintf(buf, len, "syscall %u", r->sysnr);
}

void fl_blame_frame(const struct fl_blame_row *r, unsigned int i, char out[FL_SYM_LEN + 1])
{
	out[0] = '\0';
	if (i < r->nframes && i < FL_BLAME_FRAMES) {
		memcpy(out, r->frames[i], FL_SYM_LEN);
		out[FL_SYM_LEN] = '\0';
	}
}

void fl_blame_comm(const struct fl_blame_row *r, char out[BL_COMM_LEN + 1])
{
	memcpy(out, r->comm, BL_COMM_LEN);
	out[BL_COMM_LEN] = '\0';
}

const struct fl_blame_row *fl_snapshot_blame(const struct fl_snapshot *s, unsigned int *nr)
{
	return fl_snapshot_find_section(s, FL_SEC_BLAME, sizeof(struct fl_blame_row), nr);
}

const struct fl_blame_total *fl_snapshot_blame_total(const struct fl_snapshot *s)
{
	unsigned int nr;
	const struct fl_blame_total *t =
		fl_snapshot_find_section(s, FL_SEC_BLAME_TOTAL, sizeof(*t), &nr);

	return t && nr == 1 ? t : NULL;
}

void fl_blame_frames_str(const struct fl_blame_row *r, char *buf, size_t len, const char *sep)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < r->nframes && i < FL_BLAME_FRAMES && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%.*s", i ? sep : "", FL_SYM_LEN,
				r->frames[i]);
}

/*
 * Why lockless-path fallbacks were not counted, NULL when they were: a
 * 0 then means none seen (never 0 for a kernel without per-VMA locks).
 */
const char *fl_blame_fb_unavail(const struct fl_snapshot *s)
{
	const struct fl_blame_total *t = fl_snapshot_blame_total(s);
	const char *tag = fl_snapshot_tag(s, FL_TAG_BLAME_FALLBACKS);

	if (t && t->fb_seen == FL_BLAME_FB_ON)
		return NULL;
	if (t && t->fb_seen == FL_BLAME_FB_NONE && tag)
		return tag;
	return t && t->fb_seen == FL_BLAME_FB_NONE ? "unavailable" :
	       "unavailable (recorded before lockless-path fallbacks were counted)";
}

static const char *const misc_names[BL_M_NR] = {
	[BL_M_SITES_FULL] = "sites_full", [BL_M_HOLDERS_FULL] = "holders_full",
	[BL_M_STACK_FAIL] = "stack_fail", [BL_M_NOSTATE] = "nostate",
	[BL_M_NESTED] = "nested", [BL_M_NOFAULT] = "nofault", [BL_M_SELF] = "self",
};

const char *fl_blame_event_name(unsigned int i)
{
	return i < BL_M_NR ? misc_names[i] : NULL;
}

const char *fl_blame_kind_name(unsigned int k)
{
	return k == FL_BLAME_SYSCALL ? "syscall" : k == FL_BLAME_KTHREAD ? "kthread" :
	       k == FL_BLAME_OTHER ? "other" : "?";
}
