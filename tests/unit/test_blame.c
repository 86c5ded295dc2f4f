// SPDX-License-Identifier: GPL-2.0
/*
 * Holder attribution (include/faultline/blame.h, user/blame_report.c): the
 * hold split the BPF program keeps (the same inline code), how a holder's
 * kind is told from its frames, and the report / raw / json of a snapshot
 * built here, read back through the snapshot format.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "blame_model.h"
#include "blame_report.h"
#include "blame_rows.h"
#include "export.h"

/* on-CPU 100..130, preempted 130..150, on 150..160, asleep 160..200, on 200..210 */
static void test_split_sums_to_hold(void **state)
{
	struct bl_split s;

	(void)state;
	bl_split_begin(&s, 100);
	bl_split_to(&s, BL_ST_RUNNABLE, 130);
	bl_split_to(&s, BL_ST_ONCPU, 150);
	bl_reclaim_enter(&s, 152);
	bl_reclaim_enter(&s, 153);	/* nested: counted once */
	bl_split_to(&s, BL_ST_SLEEP, 160);
	bl_reclaim_exit(&s, 170);
	bl_split_to(&s, BL_ST_ONCPU, 200);
	bl_split_end(&s, 210);
	assert_int_equal(s.ns[BL_ST_ONCPU], 30 + 10 + 10);
	assert_int_equal(s.ns[BL_ST_RUNNABLE], 20);
	assert_int_equal(s.ns[BL_ST_SLEEP], 40);
	assert_int_equal(s.ns[0] + s.ns[1] + s.ns[2], 210 - 100);
	/* the inner exit at 170 does not end the outer reclaim: it runs to the end */
	assert_int_equal(s.reclaim_ns, 210 - 152);
}

static void test_split_reclaim_exit_without_enter(void **state)
{
	struct bl_split s;

	(void)state;
	bl_split_begin(&s, 0);
	bl_reclaim_exit(&s, 5);		/* began before the hold: ignored */
	bl_reclaim_enter(&s, 10);
	bl_reclaim_exit(&s, 25);
	bl_split_end(&s, 30);
	assert_int_equal(s.reclaim_ns, 15);
	assert_int_equal(s.ns[BL_ST_ONCPU], 30);
}

static void test_kind_and_what(void **state)
{
	char f[FL_BLAME_FRAMES][FL_SYM_LEN] = { "do_mprotect_pkey", "__x64_sys_mprotect",
						"do_syscall_64" };
	char g[FL_BLAME_FRAMES][FL_SYM_LEN] = { "expand_stack", "lock_mm_and_find_vma",
						"exc_page_fault" };
	struct fl_blame_row r = { .sysnr = 10 };
	char buf[96];

	(void)state;
	assert_int_equal(fl_blame_kind(10, (const char (*)[FL_SYM_LEN])f, 3), FL_BLAME_SYSCALL);
	assert_int_equal(fl_blame_kind(4, (const char (*)[FL_SYM_LEN])g, 3), FL_BLAME_OTHER);
	assert_int_equal(fl_blame_kind(BL_SYS_NONE, (const char (*)[FL_SYM_LEN])f, 3),
			 FL_BLAME_KTHREAD);
	r.kind = FL_BLAME_SYSCALL;
	fl_blame_what(&r, buf, sizeof(buf));
	assert_string_equal(buf, "mprotect()");
	r.sysnr = 9999;
	fl_blame_what(&r, buf, sizeof(buf));
	assert_string_equal(buf, "syscall 9999");
	assert_true(fl_blame_frame_skipped("bpf_trace_run2"));
	assert_true(fl_blame_frame_skipped("__mmap_lock_do_trace_acquire_returned"));
	assert_false(fl_blame_frame_skipped("do_mprotect_pkey"));
	assert_string_equal(fl_syscall_name(11), "munmap");
	assert_null(fl_syscall_name(100000));
}

/*
 * A snapshot with one holder row and totals, through serialize + parse.
 * fb: its lockless-path fallbacks (FL_BLAME_FB_*): ON 37 charged to the
 * row, 5 with no writer holding; NONE unavailable with the 6.1 reason;
 * UNKNOWN a snapshot from before they were counted (the pad read as 0).
 */
static void build_fb(struct fl_snapshot *out, unsigned int fb)
{
	struct fl_snapshot s = { 0 };
	struct fl_blame_row row = { 0 };
	struct fl_blame_total t = { 0 };
	char err[256];
	void *buf;
	size_t len;

	assert_int_equal(fl_snapshot_alloc_cpus(&s, 1), 0);
	s.hdr.magic = FL_SNAP_MAGIC;
	s.hdr.version = FL_SNAP_VERSION;
	s.hdr.header_size = sizeof(s.hdr);
	s.hdr.nr_cpus = 1;
	s.hdr.duration_ns = 2000000000ULL;
	row.sysnr = 10;
	row.kind = FL_BLAME_SYSCALL;
	row.tid = 4411;
	memcpy(row.comm, "pft-writer", 11);
	row.nframes = 2;
	memcpy(row.frames[0], "do_mprotect_pkey", 17);
	memcpy(row.frames[1], "__x64_sys_mprotect", 19);
	fl_hist_add(&row.wait, 1000000);
	fl_hist_add(&row.wait, 3000000);	/* 4 ms behind it */
	fl_hist_add(&row.hold, 500000);
	row.ns[BL_ST_ONCPU] = 300000;
	row.ns[BL_ST_SLEEP] = 200000;
	row.reclaim_ns = 250000;
	fl_hist_add(&t.wait_all, 1000000);
	fl_hist_add(&t.wait_all, 3000000);
	fl_hist_add(&t.wait_all, 1000000);	/* 5 ms in all: 80 % behind the writer */
	t.waits_blamed = 2;
	t.misc[BL_M_NOFAULT] = 7;
	t.sites = 1;
	t.fb_seen = fb;
	if (fb == FL_BLAME_FB_ON) {
		row.fallbacks = 37;
		t.fallbacks = 37;
		t.fallbacks_free = 5;
		assert_int_equal(fl_snapshot_set_tag(&s, "blame.fallbacks", "tracepoint"), 0);
	} else if (fb == FL_BLAME_FB_NONE) {
		assert_int_equal(fl_snapshot_set_tag(&s, "blame.fallbacks", "unavailable (no "
						     "per-VMA locks in this kernel)"), 0);
	}
	assert_int_equal(fl_snapshot_add_section(&s, FL_SEC_BLAME, 1, &row, sizeof(row)), 0);
	assert_int_equal(fl_snapshot_add_section(&s, FL_SEC_BLAME_TOTAL, 1, &t, sizeof(t)), 0);
	assert_int_equal(fl_snapshot_set_tag(&s, "blame", "tracepoint"), 0);
	assert_int_equal(fl_snapshot_serialize(&s, &buf, &len), 0);
	fl_snapshot_free(&s);
	assert_int_equal(fl_snapshot_parse(buf, len, out, err, sizeof(err)), 0);
	free(buf);
}

static void build(struct fl_snapshot *out)
{
	build_fb(out, FL_BLAME_FB_ON);
}

static char *capture(int (*fn)(const struct fl_snapshot *, FILE *), const struct fl_snapshot *s)
{
	char *txt = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&txt, &n);

	assert_non_null(f);
	assert_int_equal(fn(s, f), 0);
	fclose(f);
	return txt;
}

static int json_wrap(const struct fl_snapshot *s, FILE *f)
{
	fl_blame_json(f, s);
	return 0;
}

static void test_report_from_snapshot(void **state)
{
	struct fl_snapshot s;
	char *txt;

	(void)state;
	build(&s);
	txt = capture(fl_report_blame, &s);
	assert_non_null(strstr(txt, "80.0% of fault mmap_lock wait (4.00ms of 5.00ms, 2.00ms per "
				    "second) was behind mprotect() from tid 4411 (pft-writer), "
				    "holding for write"));
	assert_non_null(strstr(txt, "50.0% of it in direct reclaim"));
	assert_non_null(strstr(txt, "on-CPU 60.0%, runnable 0.0%, sleeping 40.0%"));
	assert_non_null(strstr(txt, "kernel stack: do_mprotect_pkey < __x64_sys_mprotect"));
	free(txt);
	txt = capture(fl_report_blame_raw, &s);
	assert_non_null(strstr(txt, "blame=tracepoint\n"));
	assert_non_null(strstr(txt, "blame.waits=3\nblame.wait_ns=5000000\n"));
	assert_non_null(strstr(txt, "blame.blamed_wait_ns=4000000\n"));
	assert_non_null(strstr(txt, "blame.event.nofault=7\n"));
	assert_non_null(strstr(txt, "blame.row.0.what=mprotect()\n"));
	assert_non_null(strstr(txt, "blame.row.0.holds=1\nblame.row.0.hold_ns=500000\n"));
	assert_non_null(strstr(txt, "blame.row.0.frames=do_mprotect_pkey<__x64_sys_mprotect\n"));
	free(txt);
	txt = capture(json_wrap, &s);
	assert_non_null(strstr(txt, ",\"blame\":{\"available\":true,\"fault_wait\":{\"unit\":\"ns\","
				    "\"count\":3,\"sum\":5000000"));
	assert_non_null(strstr(txt, "{\"what\":\"mprotect()\",\"kind\":\"syscall\",\"sysnr\":10,"
				    "\"tid\":4411,\"comm\":\"pft-writer\""));
	free(txt);
	fl_snapshot_free(&s);
}

/*
 * Lockless-path fallbacks in the three states the snapshot can hold: the
 * figures where counted, the reason where not (never 0).
 */
static void test_fallbacks(void **state)
{
	struct fl_snapshot s;
	char *txt;

	(void)state;
	build_fb(&s, FL_BLAME_FB_ON);
	assert_null(fl_blame_fb_unavail(&s));
	txt = capture(fl_report_blame, &s);
	assert_non_null(strstr(txt, "lockless-path fallbacks of user faults: 37 while a writer "
				    "held (charged below), 5 with none holding"));
	assert_non_null(strstr(txt, "began while the writer was still queued) and 37 "
				    "lockless-path fallbacks\n"));
	free(txt);
	txt = capture(fl_report_blame_raw, &s);
	assert_non_null(strstr(txt, "blame.fallbacks=37\nblame.fallbacks_free=5\n"));
	assert_non_null(strstr(txt, "blame.row.0.fallbacks=37\n"));
	free(txt);
	txt = capture(json_wrap, &s);
	assert_non_null(strstr(txt, "\"blamed_waits\":2,\"fallbacks\":{\"available\":true,"
				    "\"holding\":37,\"free\":5}"));
	assert_non_null(strstr(txt, "\"behind_queued\":0,\"fallbacks\":37,"));
	free(txt);
	fl_snapshot_free(&s);

	build_fb(&s, FL_BLAME_FB_NONE);
	assert_string_equal(fl_blame_fb_unavail(&s),
			    "unavailable (no per-VMA locks in this kernel)");
	txt = capture(fl_report_blame, &s);
	assert_non_null(strstr(txt, "lockless-path fallbacks: unavailable (no per-VMA locks in "
				    "this kernel)\n"));
	assert_non_null(strstr(txt, "; lockless-path fallbacks unavailable (no per-VMA locks"));
	assert_null(strstr(txt, " 0 lockless-path fallbacks"));
	free(txt);
	txt = capture(fl_report_blame_raw, &s);
	assert_non_null(strstr(txt, "blame.row.0.fallbacks=unavailable (no per-VMA locks"));
	assert_null(strstr(txt, "fallbacks=0"));
	free(txt);
	txt = capture(json_wrap, &s);
	assert_non_null(strstr(txt, "\"fallbacks\":{\"available\":false,\"reason\":"
				    "\"unavailable (no per-VMA locks in this kernel)\"}"));
	assert_non_null(strstr(txt, "\"behind_queued\":0,\"fallbacks\":null,"));
	free(txt);
	fl_snapshot_free(&s);

	build_fb(&s, FL_BLAME_FB_UNKNOWN);	/* an older snapshot: pad 0 */
	assert_string_equal(fl_blame_fb_unavail(&s), "unavailable (recorded before "
			    "lockless-path fallbacks were counted)");
	txt = capture(fl_report_blame_raw, &s);
	assert_null(strstr(txt, "fallbacks=0"));
	free(txt);
	fl_snapshot_free(&s);
}

/* Recorded without --blame: the report says so; json and raw add nothing. */
static void test_absent(void **state)
{
	struct fl_snapshot s = { 0 };
	char *txt;

	(void)state;
	assert_int_equal(fl_snapshot_alloc_cpus(&s, 1), 0);
	s.hdr.nr_cpus = 1;
	txt = capture(fl_report_blame, &s);
	assert_non_null(strstr(txt, "blame: absent (recorded without --blame)"));
	free(txt);
	txt = capture(json_wrap, &s);
	assert_string_equal(txt, "");
	free(txt);
	/* a truncated section is malformed, not read */
	assert_int_equal(fl_snapshot_add_section(&s, FL_SEC_BLAME_TOTAL, 1, "x", 1), 0);
	assert_null(fl_snapshot_blame_total(&s));
	fl_snapshot_free(&s);
}

/* export csv of a one-snapshot model (by total), into a string */
static char *csv_of(struct fl_snapshot *s)
{
	struct fl_export_snap es = { .run = "r", .path = "r.snap", .s = *s };
	struct fl_export e = { .by = FL_EXP_BY_TOTAL, .snaps = &es, .nsnaps = 1 };
	char *txt = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&txt, &n);

	assert_non_null(f);
	fl_snapshot_total(s, &es.total.st);
	fl_export_csv(f, &e);
	fclose(f);
	*s = es.s;	/* its tag lookups' cache, freed with s */
	return txt;
}

/*
 * The csv rows of build()'s snapshot.  Expected figures are build()'s own
 * inputs, and the buckets worked out by hand from formats.rst's layout:
 * 1000000 ns is in [2^19, 2^20) = 8 buckets of 65536: [983040, 1048576);
 * 3000000 ns in [2^21, 2^22), 8 of 262144: [2883584, 3145728).
 */
static void test_csv(void **state)
{
	static const char *const want[] = {
		"r,,blame,all,blame_fault_wait,count,,,3,ns\n",
		"r,,blame,all,blame_fault_wait,sum,,,5000000,ns\n",
		"r,,blame,all,blame_fault_wait,min,,,1000000,ns\n",
		"r,,blame,all,blame_fault_wait,max,,,3000000,ns\n",
		"r,,blame,all,blame_fault_wait,bucket,983040,1048576,2,ns\n",
		"r,,blame,all,blame_fault_wait,bucket,2883584,3145728,1,ns\n",
		"r,,blame,all,blame_blamed_waits,counter,,,2,\n",
		"r,,blame,all,blame_sites,counter,,,1,\n",
		"r,,blame,all,blame_fallbacks,counter,,,37,\n",
		"r,,blame,all,blame_fallbacks_free,counter,,,5,\n",
		"r,,blame,all,blame_event_nofault,counter,,,7,\n",
		"r,,blame,all,blame_event_sites_full,counter,,,0,\n",
		"r,,blame,0,blame_what,label,,,,mprotect()\n",
		"r,,blame,0,blame_comm,label,,,,pft-writer\n",
		"r,,blame,0,blame_kind,label,,,,syscall\n",
		"r,,blame,0,blame_frames,label,,,,do_mprotect_pkey<__x64_sys_mprotect\n",
		"r,,blame,0,blame_sysnr,id,,,10,\n",
		"r,,blame,0,blame_tid,id,,,4411,\n",
		"r,,blame,0,blame_fault_wait,count,,,2,ns\n",
		"r,,blame,0,blame_fault_wait,sum,,,4000000,ns\n",
		"r,,blame,0,blame_fault_wait,bucket,983040,1048576,1,ns\n",
		"r,,blame,0,blame_fault_wait,bucket,2883584,3145728,1,ns\n",
		"r,,blame,0,blame_behind_queued,counter,,,0,\n",
		"r,,blame,0,blame_fallbacks,counter,,,37,\n",
		"r,,blame,0,blame_hold,count,,,1,ns\n",
		"r,,blame,0,blame_hold,sum,,,500000,ns\n",
		"r,,blame,0,blame_hold_oncpu,sum,,,300000,ns\n",
		"r,,blame,0,blame_hold_runnable,sum,,,0,ns\n",
		"r,,blame,0,blame_hold_sleeping,sum,,,200000,ns\n",
		"r,,blame,0,blame_hold_reclaim,sum,,,250000,ns\n",
		"r,,blame,0,blame_own_wait,sum,,,0,ns\n",
	};
	struct fl_snapshot s = { 0 };
	char *txt;
	int rows = 0;

	(void)state;
	build(&s);
	txt = csv_of(&s);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(txt, want[i]))
			fail_msg("missing csv row %s", want[i]);
	/*
	 * nothing else: totals 4 + 2 buckets, 2 counters, 2 fallbacks, 7
	 * events; the row: 4 labels, sysnr, tid, wait 4 + 2 buckets,
	 * behind_queued, fallbacks, hold 4 + 1 bucket, 3 states, reclaim, own wait
	 */
	for (char *p = txt; (p = strstr(p, ",blame,")); p++)
		rows++;
	assert_int_equal(rows, (6 + 2 + 2 + 7) + (4 + 2 + 6 + 1 + 1 + 5 + 3 + 2));
	free(txt);
	fl_snapshot_free(&s);

	/* fallbacks unavailable (6.1): one total row with the reason, none per row */
	build_fb(&s, FL_BLAME_FB_NONE);
	txt = csv_of(&s);
	assert_non_null(strstr(txt, "r,,blame,all,blame_fallbacks,counter,,,,unavailable (no "
				    "per-VMA locks in this kernel)\n"));
	assert_null(strstr(txt, "r,,blame,0,blame_fallbacks"));
	assert_null(strstr(txt, "blame_fallbacks_free"));
	free(txt);
	fl_snapshot_free(&s);

	/* recorded with --blame on a kernel that cannot: one row, the reason */
	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_snapshot_alloc_cpus(&s, 1), 0);
	s.hdr.nr_cpus = 1;
	assert_int_equal(fl_snapshot_set_tag(&s, "blame", "unavailable (no lock:contention "
					     "tracepoints (5.19+))"), 0);
	txt = csv_of(&s);
	assert_non_null(strstr(txt, "\nr,,blame,all,blame_fault_wait,count,,,,unavailable (no "
				    "lock:contention tracepoints (5.19+))\n"));
	assert_int_equal(strstr(strstr(txt, ",blame,") + 1, ",blame,"), NULL);
	free(txt);
	fl_snapshot_free(&s);

	/* recorded without --blame: no blame rows at all */
	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_snapshot_alloc_cpus(&s, 1), 0);
	s.hdr.nr_cpus = 1;
	txt = csv_of(&s);
	assert_null(strstr(txt, ",blame,"));
	free(txt);
	fl_snapshot_free(&s);
}


/*
 * The rows faultline.ko's snapshot brings (module/blame.c: one per site,
 * by raw stack): two sites that symbolise the same are one row, figures
 * summed; rows by the wait caused; the kind told from the frames; an
 * unterminated comm cut; the total kept, fallbacks "none".  A snapshot
 * without the module's total is "no rows" (1), its sections dropped.
 */
static void kmod_row(struct fl_blame_row *r, unsigned int sysnr, const char *comm,
		     const char *f0, const char *f1, fl_u64 wait, fl_u64 hold)
{
	memset(r, 0, sizeof(*r));
	r->sysnr = sysnr;
	r->tid = 77;
	memcpy(r->comm, comm, strlen(comm));
	r->nframes = 2;
	memcpy(r->frames[0], f0, strlen(f0));
	memcpy(r->frames[1], f1, strlen(f1));
	if (wait)
		fl_hist_add(&r->wait, wait);
	fl_hist_add(&r->hold, hold);
	r->ns[BL_ST_ONCPU] = hold;
}

static void test_kmod_rows(void **state)
{
	struct fl_blame_row in[3];
	struct fl_blame_total t = { 0 }, got;
	const struct fl_blame_row *r;
	const struct fl_blame_total *tp;
	struct fl_snapshot s = { 0 };
	unsigned int nr;
	char err[128];

	(void)state;
	kmod_row(&in[0], 9, "bl-writer", "do_mmap", "__x64_sys_mmap", 1000, 50);
	kmod_row(&in[1], 10, "bl-writer", "do_mprotect_pkey", "__x64_sys_mprotect", 3000, 70);
	kmod_row(&in[2], 10, "bl-writer", "do_mprotect_pkey", "__x64_sys_mprotect", 2000, 30);
	memset(in[0].comm, 'x', BL_COMM_LEN);		/* no NUL from the module */
	in[0].kind = 99;				/* what the module left: recomputed */
	t.kmod = FL_BLAME_KMOD | FL_BLAME_KMOD_SWITCH | FL_BLAME_KMOD_RECLAIM;
	t.sites = 3;
	t.waits_blamed = 3;
	t.fb_seen = FL_BLAME_FB_ON;			/* the module never counts them */
	assert_int_equal(fl_snapshot_add_section(&s, FL_SEC_BLAME, 3, in, sizeof(in)), 0);
	assert_int_equal(fl_snapshot_add_section(&s, FL_SEC_BLAME_TOTAL, 1, &t, sizeof(t)), 0);
	assert_int_equal(fl_blame_kmod_rows(&s, &got, err, sizeof(err)), 0);
	r = fl_snapshot_blame(&s, &nr);
	assert_non_null(r);
	assert_int_equal(nr, 2);
	/* mprotect(): the two sites merged, 5000 ns of wait, first */
	assert_int_equal(r[0].sysnr, 10);
	assert_int_equal(r[0].wait.count, 2);
	assert_int_equal(r[0].wait.sum, 5000);
	assert_int_equal(r[0].hold.count, 2);
	assert_int_equal(r[0].hold.sum, 100);
	assert_int_equal(r[0].ns[BL_ST_ONCPU], 100);
	assert_int_equal(r[0].kind, FL_BLAME_SYSCALL);
	assert_int_equal(r[1].sysnr, 9);
	assert_int_equal(r[1].kind, FL_BLAME_SYSCALL);
	assert_int_equal(r[1].comm[BL_COMM_LEN - 1], '\0');
	tp = fl_snapshot_blame_total(&s);
	assert_non_null(tp);
	assert_int_equal(tp->sites, 3);
	assert_int_equal(tp->fb_seen, FL_BLAME_FB_NONE);
	assert_true(tp->kmod & FL_BLAME_KMOD);
	fl_snapshot_free(&s);

	/* the BPF skeleton's total (kmod 0) is not the module's */
	memset(&s, 0, sizeof(s));
	t.kmod = 0;
	assert_int_equal(fl_snapshot_add_section(&s, FL_SEC_BLAME, 1, in, sizeof(in[0])), 0);
	assert_int_equal(fl_snapshot_add_section(&s, FL_SEC_BLAME_TOTAL, 1, &t, sizeof(t)), 0);
	assert_int_equal(fl_blame_kmod_rows(&s, &got, err, sizeof(err)), 1);
	assert_null(fl_snapshot_blame(&s, &nr));
	assert_null(fl_snapshot_blame_total(&s));
	fl_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_sums_to_hold),
		cmocka_unit_test(test_split_reclaim_exit_without_enter),
		cmocka_unit_test(test_kind_and_what),
		cmocka_unit_test(test_report_from_snapshot),
		cmocka_unit_test(test_fallbacks),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_kmod_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
