// SPDX-License-Identifier: GPL-2.0
/*
 * mkseeds TARGET DIR: write valid inputs for a fuzz target into DIR so the
 * fuzzer starts from well-formed files instead of searching for the magic.
 * Unknown targets get nothing (their fuzzers start from an empty corpus).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <faultline/blame.h>
#include "ksyms.h"
#include "ksyms_cache.h"
#include "snapshot.h"

/* record --phases --locks sections, as raw sections the writer keeps */
static int add_section(struct fl_snapshot *s, unsigned int type, unsigned int count, size_t size,
		       void *data)
{
	int ret = fl_snapshot_add_section(s, type, count, data, size);

	free(data);
	return ret;
}

static int add_phases(struct fl_snapshot *s)
{
	unsigned int nr = s->hdr.nr_cpus;
	struct fl_phase_stats *ph = calloc(nr, sizeof(*ph));
	struct fl_lock_stats *lk = calloc(nr, sizeof(*lk));
	struct fl_lock_caller *lc = calloc(2, sizeof(*lc));

	if (!ph || !lk || !lc)
		return -1;
	for (unsigned int c = 0; c < nr; c++) {
		ph[c].faults = 100;
		ph[c].lat_sum = 100000;
		ph[c].unattributed_sum = 1000;
		for (unsigned int p = 0; p < FL_PH_NR; p++)
			for (unsigned int i = 0; i < 100; i++)
				fl_hist_add(&ph[c].hist[p], 100 + p * 10 + i);
		for (unsigned int k = 0; k < FL_LK_NR; k++) {
			lk[c].count[k] = 10 + k;
			for (unsigned int i = 0; i < 10 + k; i++)
				fl_hist_add(&lk[c].wait[k], 500 + i);
		}
	}
	snprintf(lc[0].sym, sizeof(lc[0].sym), "do_anonymous_page");
	lc[0].count = 3;
	lc[0].wait_ns = 3000;
	snprintf(lc[1].sym, sizeof(lc[1].sym), "other");
	lc[1].count = 1;
	lc[1].wait_ns = 10;
	fl_snapshot_set_tag(s, "phases_tier", "kprobe");
	return add_section(s, FL_SEC_PHASES, nr, nr * sizeof(*ph), ph) ||
	       add_section(s, FL_SEC_LOCKS, nr, nr * sizeof(*lk), lk) ||
	       add_section(s, FL_SEC_LOCK_CALLERS, 2, 2 * sizeof(*lc), lc);
}

/* FL_SEC_PHASES as written before the file-fault phases (widened on read) */
static int add_old_phases(struct fl_snapshot *s)
{
	unsigned int nr = s->hdr.nr_cpus;
	unsigned char *ph = calloc(nr, FL_PHASE_STATS_V1_SIZE);
	struct fl_phase_stats one;

	if (!ph)
		return -1;
	memset(&one, 0, sizeof(one));
	one.faults = 10;
	one.lat_sum = 10000;
	for (unsigned int p = 0; p < FL_PH_NR_V1; p++)
		fl_hist_add(&one.hist[p], 100 + p);
	for (unsigned int c = 0; c < nr; c++)
		memcpy(ph + c * FL_PHASE_STATS_V1_SIZE, &one, FL_PHASE_STATS_V1_SIZE);
	fl_snapshot_set_tag(s, "phases.unavailable", "zero (no traceable hook in this kernel)");
	return add_section(s, FL_SEC_PHASES, nr, nr * FL_PHASE_STATS_V1_SIZE, ph);
}

/* record --blame sections: two holder rows and the totals */
static int add_blame(struct fl_snapshot *s)
{
	struct fl_blame_row *r = calloc(2, sizeof(*r));
	struct fl_blame_total *t = calloc(1, sizeof(*t));

	if (!r || !t) {
		free(r);
		free(t);
		return -1;
	}
	for (unsigned int i = 0; i < 2; i++) {
		r[i].sysnr = i ? 11 : 10;
		r[i].kind = FL_BLAME_SYSCALL;
		r[i].tid = 100 + i;
		memcpy(r[i].comm, "bl-writer", 10);
		r[i].nframes = 2;
		memcpy(r[i].frames[0], "do_mprotect_pkey", 17);
		memcpy(r[i].frames[1], "do_syscall_64", 14);
		r[i].ns[BL_ST_ONCPU] = 1000;
		for (unsigned int k = 0; k < 10; k++) {
			fl_hist_add(&r[i].wait, 2000 + k);
			fl_hist_add(&r[i].hold, 1000 + k);
			fl_hist_add(&t->wait_all, 2000 + k);
		}
	}
	t->waits_blamed = 20;
	t->sites = 2;
	fl_snapshot_set_tag(s, "blame", "tracepoint");
	return add_section(s, FL_SEC_BLAME, 2, 2 * sizeof(*r), r) ||
	       add_section(s, FL_SEC_BLAME_TOTAL, 1, sizeof(*t), t);
}

/*
 * The same snapshot as a format 1.0 file (no checksums, as written before
 * 1.1): the header cut back to struct fl_snap_header.  Mutations of these
 * pass the parser unchecked, so the targets that do not reseal their inputs
 * (fuzz_report) still get past it.
 */
static int write_v10(const char *path, const struct fl_snapshot *s)
{
	struct fl_snap_header h;
	size_t len, hs;
	void *buf;
	FILE *f;
	int ret;

	if (fl_snapshot_serialize(s, &buf, &len))
		return -1;
	memcpy(&h, buf, sizeof(h));
	hs = h.header_size;	/* the sections start there */
	h.version = 0x00010000;
	h.header_size = sizeof(h);
	f = fopen(path, "wb");
	ret = !f || fwrite(&h, sizeof(h), 1, f) != 1 ||
	      fwrite((char *)buf + hs, 1, len - hs, f) != len - hs;
	if (f && fclose(f))
		ret = 1;
	free(buf);
	return ret ? -1 : 0;
}

static int snapshot_seeds(const char *dir)
{
	struct fl_snapshot s = { 0 };
	char path[4096], err[256];
	int ret = 0;

	for (unsigned int nr = 1; nr <= 4; nr *= 2) {
		if (fl_snapshot_alloc_cpus(&s, nr))
			return 1;
		s.hdr.backend = FL_BACKEND_BPF;
		s.hdr.tier = FL_TIER_FENTRY;
		for (unsigned int c = 0; c < nr; c++) {
			s.cpus[c].cnt[FL_C_FAULTS_USER] = 100 + c;
			fl_hist_add(&s.cpus[c].hist[FL_H_FAULT_LAT], 1000 + c);
		}
		if (nr == 4) {
			fl_snapshot_set_tag(&s, "kernel_version", "6.12.0");
			fl_snapshot_set_tag(&s, "kernel_build", "#1 SMP PREEMPT_DYNAMIC");
			/* compare's rank tests per LLC domain and node */
			fl_snapshot_set_tag(&s, "topology_llc", "0-1 2-3");
			fl_snapshot_set_tag(&s, "topology_node", "0:0-1 1:2-3");
			/* record --self-cost tags (user/selfcost.h) */
			fl_snapshot_set_tag(&s, "bpf_run.tp_pf_user", "403 80600");
			fl_snapshot_set_tag(&s, "bpf_run.fx_hmf", "403 120900");
			if (add_phases(&s) || add_blame(&s))
				return 1;
		}
		if (nr == 2 && add_old_phases(&s))
			return 1;
		snprintf(path, sizeof(path), "%s/seed-%u.snap", dir, nr);
		if (fl_snapshot_write_file(path, &s, err, sizeof(err))) {
			fprintf(stderr, "mkseeds: %s\n", err);
			ret = 1;
		}
		snprintf(path, sizeof(path), "%s/seed-%u-v1.0.snap", dir, nr);
		if (write_v10(path, &s)) {
			fprintf(stderr, "mkseeds: %s: cannot write\n", path);
			ret = 1;
		}
	}
	fl_snapshot_free(&s);
	return ret;
}

/* Text seeds: each one input; "\x01" and "\0" inside are field separators. */
struct seed { const char *target; const char *data; size_t len; };
#define S(t, lit) { t, lit, sizeof(lit) - 1 }
#define PFTLINE "   1    4   1     0.12s     0.80s     0.23s 123456.789 456789.012\n"

static const struct seed seeds[] = {
	S("pftline", PFTLINE),
	S("pftline", "  Gb Thr CLine   User     System     Wall    flt/cpu/s fault/wsec\n"),
	S("pftline", "# latency ns: p50 812 p90 1203 p99 4096 p99.9 9000 max 20000\n"),
	S("pftline", "   0    1   1     0.00s     0.00s     0.00s inf inf\n"),
	S("wisline", "min:21916 max:21916 total:21916"),
	S("wisline", "min:6930 max:27761 total:34691"),
	S("wisline", "testcase:Anonymous memory page fault"),
	S("wisline", "measurement"),
	S("wisline", "average:34960"),
	S("wisline", "   0 -> 1234"),
	S("kv", "\x10kernel_version\0kernel_version=6.12.0\nuser=me\n"),
	S("kv", "\x03PFT_ITERATIONS\0export PFT_ITERATIONS=\"5\"\r\n"),
	S("vmstat", "nr_free_pages 123\npgfault 1000\npgmajfault 2\nspf_attempt 5\n"
		    "vma_lock_success 7\nvma_lock_abort 0\nspeculative_pgfault 9\n"),
	S("topology", "\x00\x04" "0-3,8-11\n"),
	S("topology", "\x00\x40" "0,2,4-7,100-103"),
	S("topology", "\x01\x00" "32768K"),
	S("topology", "\x02\x08" "0-3 4-7\0" "0:0-3 1:4-7"),
	S("pft_options", "\x00-m\0" "64M\0-t\0" "4\0-c\0" "2\0-T"),
	S("pft_options", "\x00--series\0" "1\0" "64\0" "16"),
	S("pft_options", "\x03-n\0" "2\0--thp=always\0--latency\0--json\0--strict\0-a\0-s\0" "1"),
	S("pft_options", "\x00-z\0-M\0-v\0-v\0--check\0-m\0" "100P"),
	/* byte 0 % 8: record report probe export compare plot tags check */
	S("cli", "\x00-o\0out/\0-b\0bpf\0--tier\0fentry\0-i\0" "0.5\0-d\0" "10\0-q\0--\0pft\0-m\0" "1g"),
	S("cli", "\x00-a\0-b\0kmod\0--phases\0--locks\0-p\0" "42"),
	S("cli", "\x01--per-cpu\0--hist\0--raw\0--phases\0--locks\0--by\0llc\0a.snap"),
	S("cli", "\x02-h"),
	S("cli", "\x03--format\0prom\0-b\0node\0--topology-root\0/\0--run\0r\0-o\0x\0a.snap"),
	S("cli", "\x04-f\0markdown\0--seed\0--label-a\0A\0--kernel-b\0" "6.1\0--alpha\0" "0.01\0A\0B"),
	S("cli", "\x04-a\0a1.snap\0a2.snap\0--precision\0" "3\0-b\0dirB\0-f\0md"),
	S("cli", "\x04--hist\0-f\0csv\0a.snap\0b.snap"),
	S("cli", "\x05-o\0plots\0-f\0svg\0--label-b\0b\0--threads\0" "8\0A\0B"),
	S("cli", "\x06--root\0/\0--topology"),
	S("cli", "\x07-q\0a.snap\0b.snap"),
	S("sweep", "pft-1.log\npft-2.log\ntags\nsweep.conf\nsnap/pft-1-0.snap\n"
		   "snap/pft-1-1.snap\nsnap/pft-2-0.snap\x01" PFTLINE PFTLINE "\x01"
		   "   1    2   1     0.12s     0.80s     0.23s 123456.789 456789.012\n"
		   "   1    2   1     0.12s     0.80s     0.23s inf inf\n\x01"
		   "kernel_version=6.12.0\nmachine_platform_genus=skylake\n\x01"
		   "export PFT_ITERATIONS=2\nPFT_MEMORY=1G\n\x01x\x01y\x01z"),
	S("sweep", "benchlog-page_fault1_threads-1\nbenchlog-page_fault1_threads-2\n"
		   "snap/page_fault1_threads-2.snap\x01"
		   "testcase:Anonymous memory page fault\nwarmup\nmin:5 max:5 total:5\n"
		   "measurement\nmin:21916 max:21916 total:21916\naverage:21916\n\x01"
		   "measurement\nmin:6930 max:27761 total:34691\n"
		   "min:754 max:21990 total:22744\naverage:28717\n\x01x"),
	S("sweep", "logs/benchlog-brk1_processes-4\nlogs/faultline-brk1-4.snap\x01"
		   "measurement\nmin:1 max:2 total:3\n\x01x"),
	S("sysfs", "0-3\x01" "0-3\x01"
		   "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
		   "model\t\t: 85\nmodel name\t: Intel(R) Xeon(R)\nstepping\t: 4\n\n"
		   "processor\t: 1\n\x01"
		   "6.12.0-1-amd64\x01x86_64\x01MemTotal:       16384000 kB\n\x01"
		   "always [madvise] never\x01[always] defer madvise never\x01"
		   "0-1\x01" "2-3\x01" "8\x01" "64\x01"
		   "0\x01" "0\x01" "1\x01" "Data\x01" "0\x01" "32K\x01"
		   "3\x01" "Unified\x01" "0-1\x01" "16384K\x01"
		   "0\x01" "0\x01" "1\x01" "Data\x01" "1\x01" "32K\x01"
		   "3\x01" "Unified\x01" "0-1\x01" "16384K\x01"
		   "1\x01" "0\x01" "1\x01" "Data\x01" "2\x01" "32K\x01"
		   "3\x01" "Unified\x01" "2-3\x01" "16384K\x01"
		   "1\x01" "1\x01" "1\x01" "Data\x01" "3\x01" "32K\x01"
		   "3\x01" "Unified\x01" "2-3\x01" "16384K"),
};

static int text_seeds(const char *target, const char *dir)
{
	char path[4096];
	int k = 0;

	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		FILE *f;

		if (strcmp(seeds[i].target, target))
			continue;
		snprintf(path, sizeof(path), "%s/seed-%d", dir, k++);
		f = fopen(path, "w");
		if (!f || fwrite(seeds[i].data, 1, seeds[i].len, f) != seeds[i].len ||
		    fclose(f)) {
			perror(path);
			return 1;
		}
	}
	return 0;
}

/* Cache files (ksyms_cache.h) of a small table: the full one and the data one. */
static int ksyms_cache_seeds(const char *dir)
{
	static const char text[] =
		"0000000000000000 A fixed_percpu_data\n"
		"000000000002c0c0 D __preempt_count\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T _text\n"
		"ffffffff81100000 T handle_mm_fault\n"
		"ffffffff81100800 t handle_mm_fault.cold\n"
		"ffffffff81080000 T lock_vma_under_rcu\n"
		"ffffffff81a00000 T _etext\n"
		"ffffffff82600000 D __per_cpu_offset\n";
	struct fl_ksyms k;
	char path[4096], err[160];
	int ret = 0;

	if (fl_ksyms_parse(&k, text, sizeof(text) - 1, err, sizeof(err))) {
		fprintf(stderr, "mkseeds: %s\n", err);
		return 1;
	}
	for (int full = 0; full <= 1; full++) {
		void *buf;
		size_t len;
		FILE *f;

		snprintf(path, sizeof(path), "%s/seed-%s", dir, full ? "full" : "data");
		if (fl_ksyms_cache_encode(&k, full, "8f6d2a52-3c1e-4b7a-9d0e-5a4b3c2d1e0f",
					  "6.12.0-1-amd64", &buf, &len)) {
			fprintf(stderr, "mkseeds: cannot encode the ksyms cache\n");
			ret = 1;
			continue;
		}
		f = fopen(path, "w");
		if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
			perror(path);
			ret = 1;
		}
		free(buf);
	}
	fl_ksyms_free(&k);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: mkseeds TARGET DIR\n");
		return 2;
	}
	if (!strcmp(argv[1], "snapshot") || !strcmp(argv[1], "report"))
		return snapshot_seeds(argv[2]);
	if (!strcmp(argv[1], "ksyms_cache"))
		return ksyms_cache_seeds(argv[2]);
	if (!strcmp(argv[1], "compare"))	/* a sweep directory too, and two recordings */
		return text_seeds("sweep", argv[2]) || snapshot_seeds(argv[2]);
	return text_seeds(argv[1], argv[2]);
}
