// SPDX-License-Identifier: GPL-2.0
/*
 * Reading `record --blame` back: `report --blame`, its --raw keys and the
 * json export's "blame" object (user/blame.h, Documentation/blame.rst).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blame.h"
#include "export_out.h"
#include "report_common.h"

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
	for (unsigned int i = 0; i < nframes && i < BL_FRAMES; i++)
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
	if (i < r->nframes && i < BL_FRAMES) {
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

/* ns per second of the window, clamped (a hostile snapshot's duration may be 1 ns) */
static unsigned long long per_sec(fl_u64 ns, double secs)
{
	double v = secs > 0 ? ns / secs : 0;

	return v < 1.8e19 ? (unsigned long long)v : 18000000000000000000ULL;
}

static fl_u64 hold_ns(const struct fl_blame_row *r)
{
	return r->hold.sum;
}

void fl_blame_frames_str(const struct fl_blame_row *r, char *buf, size_t len, const char *sep)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < r->nframes && i < BL_FRAMES && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%.*s", i ? sep : "", FL_SYM_LEN,
				r->frames[i]);
}

static const char *unavail(const struct fl_snapshot *s)
{
	const char *t = fl_snapshot_tag(s, "blame");

	return t ? t : "absent (recorded without --blame)";
}

/*
 * Why lockless-path fallbacks were not counted, NULL when they were: a
 * 0 then means none seen (never 0 for a kernel without per-VMA locks).
 */
const char *fl_blame_fb_unavail(const struct fl_snapshot *s)
{
	const struct fl_blame_total *t = fl_snapshot_blame_total(s);
	const char *tag = fl_snapshot_tag(s, "blame.fallbacks");

	if (t && t->fb_seen == FL_BLAME_FB_ON)
		return NULL;
	if (t && t->fb_seen == FL_BLAME_FB_NONE && tag)
		return tag;
	return t && t->fb_seen == FL_BLAME_FB_NONE ? "unavailable" :
	       "unavailable (recorded before lockless-path fallbacks were counted)";
}

int fl_report_blame(const struct fl_snapshot *s, FILE *out)
{
	const char *fbu;
	const struct fl_blame_total *t = fl_snapshot_blame_total(s);
	const struct fl_blame_row *r;
	unsigned int nr = 0, shown = 0;
	double secs = s->hdr.duration_ns / 1e9;
	char a[32], b[32], c[32], d[32], what[96], fr[BL_FRAMES * (FL_SYM_LEN + 3)];
	fl_u64 blamed_ns = 0;

	r = fl_snapshot_blame(s, &nr);
	fprintf(out, "\nholders of mmap_lock behind the faults' waits (record --blame)\n");
	if (!t || !r) {
		fprintf(out, "blame: %s\n", unavail(s));
		return ferror(out) ? -1 : 0;
	}
	for (unsigned int i = 0; i < nr; i++)
		blamed_ns += r[i].wait.sum;
	fl_fmt_ns(a, sizeof(a), t->wait_all.sum);
	fl_fmt_ns(b, sizeof(b), per_sec(t->wait_all.sum, secs));
	fl_fmt_pct_of(c, sizeof(c), blamed_ns, t->wait_all.sum);
	fprintf(out, "fault mmap_lock waits: %llu, %s (%s per second); %s of it behind a known "
		"writer\n", t->wait_all.count, a, b, c);
	fprintf(out, "fault path: %s\n", fl_snapshot_tag(s, "blame.fault_path") ?: "?");
	if (fl_snapshot_tag(s, "blame.writes"))
		fprintf(out, "write holds seen by: %s\n", fl_snapshot_tag(s, "blame.writes"));
	fbu = fl_blame_fb_unavail(s);
	if (fbu)
		fprintf(out, "lockless-path fallbacks: %s\n", fbu);
	else
		fprintf(out, "lockless-path fallbacks of user faults: %llu while a writer held "
			"(charged below), %llu with none holding (counted only while a write "
			"hold was open)\n", t->fallbacks, t->fallbacks_free);
	for (unsigned int i = 0; i < nr && shown < 10; i++, shown++) {
		const struct fl_blame_row *x = &r[i];
		fl_u64 h = hold_ns(x);

		fl_blame_what(x, what, sizeof(what));
		fl_fmt_pct_of(a, sizeof(a), x->wait.sum, t->wait_all.sum);
		fl_fmt_ns(b, sizeof(b), x->wait.sum);
		fl_fmt_ns(c, sizeof(c), t->wait_all.sum);
		fl_fmt_ns(d, sizeof(d), per_sec(x->wait.sum, secs));
		fprintf(out, "\n%s of fault mmap_lock wait (%s of %s, %s per second) was behind %s "
			"from tid %u (%.16s)", a, b, c, d, what, x->tid, x->comm);
		if (x->hold.count) {
			fl_fmt_ns(a, sizeof(a), fl_hist_quantile_ppm(&x->hold, 500000));
			fl_fmt_ns(b, sizeof(b), fl_hist_quantile_ppm(&x->hold, 990000));
			fl_fmt_pct_of(c, sizeof(c), x->reclaim_ns, h);
			fprintf(out, ", holding for write %s p50 / %s p99, %s of it in direct reclaim",
				a, b, c);
		}
		fputc('\n', out);
		fl_fmt_ns(a, sizeof(a), x->wait.count ? fl_hist_quantile_ppm(&x->wait, 500000) : 0);
		fl_fmt_ns(b, sizeof(b), x->wait.count ? fl_hist_quantile_ppm(&x->wait, 990000) : 0);
		fprintf(out, "    faults delayed %llu (wait p50 %s, p99 %s; %llu began while the "
			"writer was still queued)", x->wait.count, a, b, x->behind_wait);
		if (fbu)
			fprintf(out, "; lockless-path fallbacks %s\n", fbu);
		else
			fprintf(out, " and %llu lockless-path fallbacks\n", x->fallbacks);
		fl_fmt_ns(a, sizeof(a), h);
		fprintf(out, "    write holds %llu, %s:", x->hold.count, a);
		fl_fmt_pct_of(a, sizeof(a), x->ns[BL_ST_ONCPU], h);
		fl_fmt_pct_of(b, sizeof(b), x->ns[BL_ST_RUNNABLE], h);
		fl_fmt_pct_of(c, sizeof(c), x->ns[BL_ST_SLEEP], h);
		fl_fmt_ns(d, sizeof(d), x->own_wait_ns);
		fprintf(out, " on-CPU %s, runnable %s, sleeping %s; its own wait for the lock %s\n",
			a, b, c, d);
		fl_blame_frames_str(x, fr, sizeof(fr), " < ");
		fprintf(out, "    kernel stack: %s\n", fr[0] ? fr : "(none)");
		if (i == 0 && x->wait.count)
			fl_print_log2_hist(out, &x->wait, "fault wait behind it");
		if (i == 0 && x->hold.count)
			fl_print_log2_hist(out, &x->hold, "its write holds");
	}
	if (!nr)
		fprintf(out, "no write holds of mmap_lock on the traced processes' mms\n");
	fprintf(out, "events: %s\n", fl_snapshot_tag(s, "blame.events") ?: "?");
	return ferror(out) ? -1 : 0;
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

int fl_report_blame_raw(const struct fl_snapshot *s, FILE *out)
{
	const char *fbu;
	const struct fl_blame_total *t = fl_snapshot_blame_total(s);
	const struct fl_blame_row *r;
	unsigned int nr = 0;
	char what[96], fr[BL_FRAMES * (FL_SYM_LEN + 1)];
	fl_u64 blamed_ns = 0;

	r = fl_snapshot_blame(s, &nr);
	fprintf(out, "blame=%s\n", unavail(s));
	if (!t || !r)
		return ferror(out) ? -1 : 0;
	for (unsigned int i = 0; i < nr; i++)
		blamed_ns += r[i].wait.sum;
	fprintf(out, "blame.waits=%llu\nblame.wait_ns=%llu\nblame.blamed_waits=%llu\n"
		"blame.blamed_wait_ns=%llu\nblame.sites=%llu\nblame.rows=%u\n",
		t->wait_all.count, t->wait_all.sum, t->waits_blamed, blamed_ns, t->sites, nr);
	for (unsigned int i = 0; i < BL_M_NR; i++)
		if (misc_names[i])
			fprintf(out, "blame.event.%s=%llu\n", misc_names[i], t->misc[i]);
	if (fl_snapshot_tag(s, "blame.writes"))	/* absent before it was tagged */
		fprintf(out, "blame.writes=%s\n", fl_snapshot_tag(s, "blame.writes"));
	fbu = fl_blame_fb_unavail(s);
	if (fbu)
		fprintf(out, "blame.fallbacks=%s\n", fbu);
	else
		fprintf(out, "blame.fallbacks=%llu\nblame.fallbacks_free=%llu\n", t->fallbacks,
			t->fallbacks_free);
	for (unsigned int i = 0; i < nr; i++) {
		const struct fl_blame_row *x = &r[i];

		fl_blame_what(x, what, sizeof(what));
		fl_blame_frames_str(x, fr, sizeof(fr), "<");
		fprintf(out, "blame.row.%u.what=%s\nblame.row.%u.sysnr=%u\nblame.row.%u.kind=%s\n"
			"blame.row.%u.tid=%u\nblame.row.%u.comm=%.16s\n",
			i, what, i, x->sysnr, i, fl_blame_kind_name(x->kind), i, x->tid, i, x->comm);
		fprintf(out, "blame.row.%u.waits=%llu\nblame.row.%u.wait_ns=%llu\n"
			"blame.row.%u.wait_p99_ns=%llu\nblame.row.%u.behind_queued=%llu\n",
			i, x->wait.count, i, x->wait.sum, i, fl_hist_quantile_ppm(&x->wait, 990000),
			i, x->behind_wait);
		fprintf(out, "blame.row.%u.holds=%llu\nblame.row.%u.hold_ns=%llu\n"
			"blame.row.%u.hold_p50_ns=%llu\nblame.row.%u.hold_p99_ns=%llu\n"
			"blame.row.%u.own_wait_ns=%llu\n",
			i, x->hold.count, i, x->hold.sum, i, fl_hist_quantile_ppm(&x->hold, 500000),
			i, fl_hist_quantile_ppm(&x->hold, 990000), i, x->own_wait_ns);
		if (fbu)
			fprintf(out, "blame.row.%u.fallbacks=%s\n", i, fbu);
		else
			fprintf(out, "blame.row.%u.fallbacks=%llu\n", i, x->fallbacks);
		fprintf(out, "blame.row.%u.oncpu_ns=%llu\nblame.row.%u.runnable_ns=%llu\n"
			"blame.row.%u.sleep_ns=%llu\nblame.row.%u.reclaim_ns=%llu\n"
			"blame.row.%u.frames=%s\n",
			i, x->ns[BL_ST_ONCPU], i, x->ns[BL_ST_RUNNABLE], i, x->ns[BL_ST_SLEEP],
			i, x->reclaim_ns, i, fr);
	}
	return ferror(out) ? -1 : 0;
}

static void json_hist_short(FILE *f, const char *key, const struct fl_hist *h)
{
	fprintf(f, "\"%s\":{\"unit\":\"ns\",\"count\":%llu,\"sum\":%llu", key, h->count, h->sum);
	if (h->count)
		fprintf(f, ",\"min\":%llu,\"max\":%llu,\"p50\":%llu,\"p99\":%llu", h->min, h->max,
			fl_hist_quantile_ppm(h, 500000), fl_hist_quantile_ppm(h, 990000));
	fputc('}', f);
}

/* {"available":..,"holding":N,"free":N} or {"available":false,"reason":..} */
static void json_fb(FILE *f, const char *fbu, fl_u64 held, fl_u64 free_)
{
	if (fbu) {
		fputs("{\"available\":false,\"reason\":", f);
		fl_json_str(f, fbu);
		fputc('}', f);
	} else {
		fprintf(f, "{\"available\":true,\"holding\":%llu,\"free\":%llu}", held, free_);
	}
}

void fl_blame_json(FILE *f, const struct fl_snapshot *s)
{
	const char *fbu = fl_blame_fb_unavail(s);
	const struct fl_blame_total *t = fl_snapshot_blame_total(s);
	const struct fl_blame_row *r;
	unsigned int nr = 0;
	char what[96], comm[BL_COMM_LEN + 1], sym[FL_SYM_LEN + 1];

	r = fl_snapshot_blame(s, &nr);
	if (!t || !r) {
		if (fl_snapshot_tag(s, "blame")) {
			fputs(",\"blame\":{\"available\":false,\"reason\":", f);
			fl_json_str(f, fl_snapshot_tag(s, "blame"));
			fputc('}', f);
		}
		return;
	}
	fputs(",\"blame\":{\"available\":true,", f);
	json_hist_short(f, "fault_wait", &t->wait_all);
	fprintf(f, ",\"blamed_waits\":%llu,\"fallbacks\":", t->waits_blamed);
	json_fb(f, fbu, t->fallbacks, t->fallbacks_free);
	fputs(",\"events\":{", f);
	for (unsigned int i = 0, n = 0; i < BL_M_NR; i++)
		if (misc_names[i])
			fprintf(f, "%s\"%s\":%llu", n++ ? "," : "", misc_names[i], t->misc[i]);
	fputs("},\"holders\":[", f);
	for (unsigned int i = 0; i < nr; i++) {
		const struct fl_blame_row *x = &r[i];

		fl_blame_what(x, what, sizeof(what));
		fprintf(f, "%s{\"what\":", i ? "," : "");
		fl_json_str(f, what);
		fprintf(f, ",\"kind\":\"%s\",\"sysnr\":", fl_blame_kind_name(x->kind));
		if (x->kind == FL_BLAME_SYSCALL)
			fprintf(f, "%u", x->sysnr);
		else
			fputs("null", f);
		fprintf(f, ",\"tid\":%u,\"comm\":", x->tid);
		fl_blame_comm(x, comm);
		fl_json_str(f, comm);
		fputc(',', f);
		json_hist_short(f, "fault_wait", &x->wait);
		fprintf(f, ",\"behind_queued\":%llu,\"fallbacks\":", x->behind_wait);
		if (fbu)
			fputs("null", f);
		else
			fprintf(f, "%llu", x->fallbacks);
		fputc(',', f);
		json_hist_short(f, "hold", &x->hold);
		fprintf(f, ",\"own_wait_ns\":%llu,\"oncpu_ns\":%llu,\"runnable_ns\":%llu,"
			"\"sleep_ns\":%llu,\"reclaim_ns\":%llu,\"frames\":[",
			x->own_wait_ns, x->ns[BL_ST_ONCPU], x->ns[BL_ST_RUNNABLE],
			x->ns[BL_ST_SLEEP], x->reclaim_ns);
		for (unsigned int k = 0; k < x->nframes && k < BL_FRAMES; k++) {
			fl_blame_frame(x, k, sym);
			if (k)
				fputc(',', f);
			fl_json_str(f, sym);
		}
		fputs("]}", f);
	}
	fputs("]}", f);
}
