// SPDX-License-Identifier: GPL-2.0
/*
 * faultline probe: what this kernel allows (BTF, each hook, tracepoint
 * prototypes, enum values, each tier actually loaded and attached) and what
 * `record` would use.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "backend_bpf.h"
#include "backend_kmod.h"
#include "commands.h"
#include "kfeatures.h"
#include "kfields.h"
#include "ksyms.h"
#include "phases.h"
#include "snapshot.h"
#include "vmstat.h"

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

static void enum_line(const char *name, long long v)
{
	if (v < 0)
		printf("  %-26s not in BTF\n", name);
	else
		printf("  %-26s 0x%llx\n", name, v);
}

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: faultline probe\n");
}

int parse_probe_args(int argc, char **argv, char *err, size_t errlen)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int opt;

	err[0] = '\0';
	fl_getopt_start();
	while ((opt = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		if (opt == 'h')
			return FL_ARGS_HELP;
		return fl_args_getopt_bad(opt, argv, lo, err, errlen);
	}
	if (argc > 1)		/* an operand, or a bare "--" */
		return fl_args_bad(err, errlen, "unexpected argument '%s'",
				   argv[optind < argc ? optind : argc - 1]);
	return FL_ARGS_RUN;
}

int cmd_probe(int argc, char **argv)
{
	struct fl_kfeatures kf;
	struct fl_kvals kv;
	struct fl_vmstat vm = { 0 };
	struct btf *btf;
	struct utsname u;
	char err[512], why[512], lockdown[128];
	const char *caveat;
	bool ok[4] = { false };
	unsigned int use = 0;
	bool kmod = false;
	int rc;

	rc = fl_args_exit(parse_probe_args(argc, argv, err, sizeof(err)), "probe", err, usage);
	if (rc >= 0)
		return rc;
	fl_bpf_setup_libbpf();
	uname(&u);
	printf("kernel: %s %s\n", u.release, u.machine);
	printf("euid: %u%s\n", geteuid(), geteuid() ? " (not root: loading BPF may be refused)" : "");
	read_line("/sys/kernel/security/lockdown", lockdown, sizeof(lockdown));
	printf("lockdown: %s\n", lockdown[0] ? lockdown : "unknown (no securityfs)");

	if (fl_kfeatures_read(&kf, err, sizeof(err))) {
		printf("BTF: %s\n", err);
		printf("bpf backend: unavailable (CO-RE programs need kernel BTF)\n");
	} else {
		printf("BTF: yes\n");
		printf("functions:\n");
		printf("  %-26s %s\n", "handle_mm_fault", yes_no(kf.has_hmf));
		printf("  %-26s %s\n", "do_handle_mm_fault", yes_no(kf.has_do_hmf));
		printf("  %-26s %s\n", "__handle_speculative_fault", yes_no(kf.has_spf_dufour));
		printf("  %-26s %s\n", "lock_vma_under_rcu", yes_no(kf.has_lock_vma));
		printf("tracepoints:\n");
		printf("  %-26s %s\n", "exceptions:page_fault_user", yes_no(kf.tp_pf_user));
		printf("  %-26s %s\n", "exceptions:page_fault_kernel", yes_no(kf.tp_pf_kernel));
		printf("  %-26s %s\n", "mmap_lock:*", !kf.tp_mmap_lock ? "no" :
		       kf.mmap_memcg ? "yes, prototype (mm, memcg_path, write[, success])"
				     : "yes, prototype (mm, write[, success])");
		if (fl_mmap_lock_off(&kf, false))
			printf("  %-26s %s\n", "", FL_MMAP_LOCK_OFF_WHY);
		printf("  %-26s %s\n", "lock:contention_begin/end", yes_no(kf.tp_contention));
		caveat = kf.tp_contention ? fl_spin_contention_caveat(NULL) : NULL;
		if (caveat)
			printf("  %-26s %s\n", "", caveat);
		printf("  %-26s %s\n", "sched:sched_process_fork", yes_no(kf.tp_fork));
		printf("enum values:\n");
		enum_line("FAULT_FLAG_VMA_LOCK", kf.flag_vma_lock);
		enum_line("FAULT_FLAG_SPECULATIVE", kf.flag_speculative);
		enum_line("VM_FAULT_RETRY", kf.vm_fault_retry);
		printf("preempt_count layout: %s\n", fl_pc_layout_describe(kf.pc_layout));
		fl_kvals_from_features(&kf, &kv);
		printf("lockless fault path: %s\n", fl_lockless_describe(&kf));
		if (kv.ll_kind != FL_LL_KIND_NONE)
			printf("  state machine: kind %s, flag 0x%x, VM_FAULT_RETRY 0x%x\n",
			       fl_ll_kind_name(kv.ll_kind), kv.ll_flag, kv.vm_fault_retry);
		if (kv.ll_infer)
			printf("  per-VMA lock lookup outcome: read from the first handle_mm_fault call's\n"
			       "  FAULT_FLAG_VMA_LOCK (no lock_vma_under_rcu hook: one probe less per fault)\n");
		if (kf.task_storage)
			printf("bpf per-task state: task-local storage\n");
		else
			printf("bpf per-task state: a hash of %d tids, emptied at exit (no task-local\n"
			       "  storage before 5.11); a traced task beyond that is counted in\n"
			       "  events_missed (--phases: phases.events nostate)\n", FL_TSTORE_HASH_MAX);
		printf("bpf tiers (loaded and attached, then detached):\n");
		for (unsigned int t = FL_TIER_FENTRY; t <= FL_TIER_TRACEPOINT; t++) {
			ok[t] = !fl_bpf_try_tier(t, &kf, why, sizeof(why));
			printf("  %-11s %s%s\n", fl_tier_name(t), ok[t] ? "ok" : "refused: ",
			       ok[t] ? "" : why);
		}
		/* each phase's hooks, with the alternatives kernels have had */
		printf("phase hooks (record --phases):\n");
		btf = fl_btf_load(NULL, 0);
		fl_phases_probe(stdout, btf);
		/* the fields and symbols read, with the names they have had */
		fl_kfields_print(stdout, btf, fl_ksyms_data(NULL, 0));
		fl_btf_free(btf);
	}
	kmod = fl_kmod_loaded();
	printf("kmod backend: %s\n", kmod ? "faultline.ko loaded" : "faultline.ko not loaded");
	if (ok[FL_TIER_FENTRY])
		use = FL_TIER_FENTRY;
	else if (!kmod && ok[FL_TIER_KPROBE])
		use = FL_TIER_KPROBE;
	else if (!kmod && ok[FL_TIER_TRACEPOINT])
		use = FL_TIER_TRACEPOINT;
	if (use)
		printf("record would use: bpf backend, %s\n", fl_tier_describe(use));
	else if (kmod)
		printf("record would use: kmod backend (faultline.ko, kprobe tier)\n");
	else
		printf("record would use: nothing (no tier loads here)\n");
	if (!fl_vmstat_read(&vm, NULL, false, err, sizeof(err))) {
		printf("/proc/vmstat counters kept:");
		for (unsigned int i = 0; i < vm.n; i++)
			printf(" %s", vm.e[i].name);
		printf("\n");
	}
	fl_vmstat_free(&vm);
	return use || kmod ? 0 : 1;
}
