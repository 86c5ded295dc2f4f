// SPDX-License-Identifier: GPL-2.0
/*
 * faultline.ko: page-fault path instrumentation with kprobes/kretprobes and
 * tracepoint probes, for kernels where the BPF backend cannot run, and as an
 * independent cross-check of it.  See Documentation/module.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/threads.h>

#include "faultline.h"
#include "stats.h"

static unsigned int fl_hooks = FL_HOOK_ALL;
static unsigned int fl_maxactive;
static bool fl_infer = true;

/*
 * A rejected value is echoed escaped and cut short: it may hold newlines
 * (quoted on the loader's command line) that would forge log lines.
 */
#define FL_ECHO_MAX	32
static void fl_param_reject(const char *name, const char *val, const char *want)
{
	size_t n = val ? strnlen(val, FL_ECHO_MAX + 1) : 0;

	pr_err("%s=%*pE%s rejected: %s\n", name, (int)min_t(size_t, n, FL_ECHO_MAX),
	       val ?: "", n > FL_ECHO_MAX ? "..." : "", want);
}

static int fl_param_set_hooks(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	char want[48];

	if (!val || fl_parse_uint(val, 0, &v) || !v || (v & ~FL_HOOK_ALL)) {
		snprintf(want, sizeof(want), "want a non-zero mask within 0x%x", FL_HOOK_ALL);
		fl_param_reject("hooks", val, want);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static int fl_param_set_tgid(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (!val || fl_parse_uint(val, 10, &v) || v > PID_MAX_LIMIT) {
		fl_param_reject("tgid", val, "want a decimal process id (0 = all)");
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

/*
 * 0 or 1, or the N / Y sysfs shows (either case); a bare "enable" is 1.
 * Stricter than param_set_bool, whose kstrtobool reads only the first
 * character or two ("yesterday" would be true).
 */
static int fl_param_set_enable(const char *val, const struct kernel_param *kp)
{
	static const char *const on[] = { "1", "y", "Y" }, *const off[] = { "0", "n", "N" };
	unsigned int i;

	if (!val) {
		*(bool *)kp->arg = true;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(on); i++) {
		if (!strcmp(val, on[i]) || !strcmp(val, off[i])) {
			*(bool *)kp->arg = !strcmp(val, on[i]);
			return 0;
		}
	}
	fl_param_reject(kp->name, val, "want 0 or 1");
	return -EINVAL;
}

static int fl_param_set_maxactive(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (!val || fl_parse_uint(val, 10, &v) || v > 4096) {
		fl_param_reject("maxactive", val, "want 0 (auto) .. 4096");
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static const struct kernel_param_ops fl_hooks_ops = {
	.set = fl_param_set_hooks, .get = param_get_uint,
};
static const struct kernel_param_ops fl_tgid_ops = {
	.set = fl_param_set_tgid, .get = param_get_uint,
};
static const struct kernel_param_ops fl_enable_ops = {
	.flags = KERNEL_PARAM_OPS_FL_NOARG,
	.set = fl_param_set_enable, .get = param_get_bool,
};
static const struct kernel_param_ops fl_maxactive_ops = {
	.set = fl_param_set_maxactive, .get = param_get_uint,
};

/* Read-only in sysfs: the control file is the one way to change them. */
module_param_cb(hooks, &fl_hooks_ops, &fl_hooks, 0444);
MODULE_PARM_DESC(hooks, "mask of hooks to register, bit = enum fl_hook (default 0x3ff = all)");
module_param_cb(tgid, &fl_tgid_ops, &fl_tgid, 0444);
MODULE_PARM_DESC(tgid, "trace only this process and its later children (0 = all, default); also `tgid N` in control");
module_param_cb(enable, &fl_enable_ops, &fl_enabled, 0444);
MODULE_PARM_DESC(enable, "hook and count from load (1) or, default, nothing hooked until `enable` in control (0)");
module_param_cb(infer, &fl_enable_ops, &fl_infer, 0444);
MODULE_PARM_DESC(infer, "per-VMA-lock kernels: read lock_vma_under_rcu's outcome from handle_mm_fault's flags (1, default) or kretprobe it (0)");
module_param_cb(maxactive, &fl_maxactive_ops, &fl_maxactive, 0444);
MODULE_PARM_DESC(maxactive, "kretprobe instances (0 = auto: 8 x possible CPUs, 64..4096)");

static int __init fl_init(void)
{
	unsigned int maxactive = fl_maxactive;
	bool enable = fl_enabled;
	int err;

	if (!maxactive)
		maxactive = clamp_t(unsigned int, 8 * num_possible_cpus(), 64, 4096);

	err = fl_filter_init();
	if (err)
		return err;
	if (fl_tgid) {
		unsigned int vnr = fl_tgid;

		if (fl_set_tgid(vnr)) {
			pr_err("tgid=%u rejected: no such process\n", vnr);
			err = -EINVAL;
			goto err_filter;
		}
	}
	err = fl_stats_init();
	if (err)
		goto err_filter;
	fl_enabled = false;		/* counting starts once everything is armed */
	err = fl_probes_register(fl_hooks, maxactive, fl_infer);
	if (err)
		goto err_stats;
	err = fl_iface_init();
	if (err)
		goto err_probes;
	if (enable) {
		mutex_lock(&fl_mutex);
		fl_enable();
		mutex_unlock(&fl_mutex);
	}
	pr_info("loaded: hooks live 0x%llx absent 0x%llx, %s, tgid %u, maxactive %u\n",
		fl_probes_live(), fl_probes_absent(),
		READ_ONCE(fl_enabled) ? "enabled" : "disabled", fl_tgid, maxactive);
	return 0;

err_probes:
	fl_probes_unregister();
	fl_blame_exit();
err_stats:
	fl_stats_exit();
err_filter:
	fl_filter_exit();
	return err;
}

static void __exit fl_exit(void)
{
	fl_iface_exit();		/* waits for open readers' in-flight calls */
	WRITE_ONCE(fl_enabled, false);
	fl_probes_unregister();		/* waits for in-flight handlers */
	fl_blame_exit();
	fl_stats_exit();
	fl_filter_exit();
	pr_info("unloaded\n");
}

module_init(fl_init);
module_exit(fl_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("faultline: page-fault path latency and lockless-path outcomes");
MODULE_AUTHOR("faultline developers");
