// SPDX-License-Identifier: GPL-2.0
/*
 * The interface: debugfs faultline/ with
 *   snapshot  0400  binary snapshot (include/faultline/abi.h), one per open
 *   summary   0400  human-readable totals
 *   hooks     0400  live / absent / nmissed per probe
 *   control   0600  the commands of control.c; EBUSY while a session is held
 *   session   0600  one recording: its open file holds the module, takes the
 *                   same commands, and disables at release (session.c)
 * Root only (the files' modes, debugfs's 0700 mount, and CAP_SYS_ADMIN at
 * open).  No kernel address is ever written out.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>

#include "faultline.h"
#include "stats.h"

static struct dentry *fl_dir;

static u64 fl_nmissed_since_reset(void)
{
	u64 n = fl_probes_nmissed();

	return n >= fl_nmissed_base ? n - fl_nmissed_base : 0;
}

/* ---- snapshot ------------------------------------------------------------ */

struct fl_blob {
	size_t len;
	char data[];
};

/* The blame sections at p, the blob cut to the rows filled. */
static void fl_snapshot_blame(struct fl_blob *b, struct fl_snap_header *h, char *p)
{
	struct fl_blame_total *t;
	struct fl_section *sec;
	unsigned int nr;

	sec = (struct fl_section *)p;
	p += sizeof(*sec);
	t = (struct fl_blame_total *)p;
	p += sizeof(*t);
	sec->type = FL_SEC_BLAME_TOTAL;
	sec->count = 1;
	sec->size = sizeof(*t);
	sec = (struct fl_section *)p;
	p += sizeof(*sec);
	nr = fl_blame_fill((struct fl_blame_row *)p, t, fl_probes_blame_ran());
	sec->type = FL_SEC_BLAME;
	sec->count = nr;
	sec->size = nr * sizeof(struct fl_blame_row);
	b->len = p + sec->size - b->data;
	h->nr_sections += 2;
}

static int fl_snapshot_open(struct inode *inode, struct file *file)
{
	size_t n = nr_cpu_ids, cpu_sz, on_sz, len;
	unsigned int cpu, nrows = fl_blame_nrows();
	struct fl_snap_header *h;
	struct fl_section *sec;
	struct fl_cpu_stats *cs;
	struct fl_blob *b;
	unsigned char *on;
	char *p;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	cpu_sz = array_size(n, sizeof(struct fl_cpu_stats));
	on_sz = ALIGN(n, 8);
	len = sizeof(*h) + 2 * sizeof(*sec) + cpu_sz + on_sz;
	/* blame (blame.c): its total, then its rows, last: they may be fewer */
	if (nrows)
		len += 2 * sizeof(*sec) + sizeof(struct fl_blame_total) +
		       array_size(nrows, sizeof(struct fl_blame_row));
	b = kvzalloc(sizeof(*b) + len, GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->len = len;

	p = b->data;
	h = (struct fl_snap_header *)p;
	p += sizeof(*h);
	sec = (struct fl_section *)p;
	p += sizeof(*sec);
	cs = (struct fl_cpu_stats *)p;
	p += cpu_sz;

	mutex_lock(&fl_mutex);
	fl_stats_fold();
	for_each_possible_cpu(cpu)
		memcpy(&cs[cpu], fl_stats_acc(cpu), sizeof(*cs));
	/* kretprobe misses have no CPU: charged to the first possible CPU. */
	cs[cpumask_first(cpu_possible_mask)].cnt[FL_C_MISSED] += fl_nmissed_since_reset();
	h->magic = FL_SNAP_MAGIC;
	h->version = FL_SNAP_VERSION;
	h->header_size = sizeof(*h);
	h->nr_sections = 2;
	h->backend = FL_BACKEND_KMOD;
	h->tier = FL_TIER_KPROBE;
	h->lockless_kind = fl_kv.ll_kind;
	h->nr_cpus = n;
	h->hooks_live = fl_probes_live();
	h->hooks_absent = fl_probes_absent();
	h->t_start_ns = fl_t_start_real;
	h->t_end_ns = ktime_get_real_ns();
	h->duration_ns = ktime_get_mono_fast_ns() - fl_t_start_mono;
	h->filter_tgid = READ_ONCE(fl_tgid);
	h->flags = fl_mmap_memcg_proto ? FL_SNAP_F_MMAP_MEMCG_PROTO : 0;
	if (fl_kv.ll_why)
		h->flags |= FL_SNAP_F_LL_WHY;
	mutex_unlock(&fl_mutex);
	strscpy(h->kernel_release, init_utsname()->release, sizeof(h->kernel_release));

	sec->type = FL_SEC_CPU;
	sec->count = n;
	sec->size = cpu_sz;

	sec = (struct fl_section *)p;
	p += sizeof(*sec);
	on = (unsigned char *)p;
	sec->type = FL_SEC_CPU_ONLINE;
	sec->count = n;
	sec->size = n;
	for_each_online_cpu(cpu)
		on[cpu] = 1;
	p += on_sz;
	if (nrows)
		fl_snapshot_blame(b, h, p);

	file->private_data = b;
	return 0;
}

static ssize_t fl_snapshot_read(struct file *file, char __user *ubuf, size_t count,
				loff_t *ppos)
{
	struct fl_blob *b = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, b->data, b->len);
}

static int fl_snapshot_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

static const struct file_operations fl_snapshot_fops = {
	.owner = THIS_MODULE,
	.open = fl_snapshot_open,
	.read = fl_snapshot_read,
	.release = fl_snapshot_release,
	.llseek = default_llseek,
};

/* ---- summary ------------------------------------------------------------- */

/* The figure names user space prints too (include/faultline/abi.h). */
static const char *const fl_cnt_label[FL_C_NR] = FL_COUNTER_NAMES;
static const char *const fl_ll_label[FL_LL_NR] = FL_LL_NAMES;
static const char *const fl_hist_label[FL_H_NR] = FL_HIST_NAMES;

static const char *const fl_ll_kind_label[] = {
	[FL_LL_KIND_NONE] = "none (no lockless fault path)",
	[FL_LL_KIND_VMA_LOCK] = "per-VMA locks",
	[FL_LL_KIND_SPF] = "speculative page faults",
	[FL_LL_KIND_UNKNOWN] = "unknown",
};

static int fl_summary_show(struct seq_file *m, void *v)
{
	struct fl_cpu_stats *t;
	u64 missed, dur, live;
	unsigned int cpu, i;

	t = kvzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	mutex_lock(&fl_mutex);
	fl_stats_fold();
	for_each_possible_cpu(cpu)
		fl_cpu_stats_add(t, fl_stats_acc(cpu));
	missed = fl_nmissed_since_reset();
	dur = ktime_get_mono_fast_ns() - fl_t_start_mono;
	mutex_unlock(&fl_mutex);
	t->cnt[FL_C_MISSED] += missed;
	live = fl_probes_live();

	seq_printf(m, "faultline module on %s: %s, tgid filter %u%s\n",
		   init_utsname()->release, READ_ONCE(fl_enabled) ? "enabled" : "disabled",
		   READ_ONCE(fl_tgid), READ_ONCE(fl_tgid) ? "" : " (all)");
	seq_printf(m, "window %llu.%03llu s since load/reset, %u possible CPUs, %u online\n",
		   div_u64(dur, NSEC_PER_SEC), div_u64(dur % NSEC_PER_SEC, NSEC_PER_MSEC),
		   num_possible_cpus(), num_online_cpus());
	seq_printf(m, "lockless path: %s\n", fl_ll_kind_label[fl_kv.ll_kind]);
	fl_clock_show(m);
	fl_session_show(m);
	seq_printf(m, "hooks live 0x%llx absent 0x%llx, %s\n\ncounters:\n", live,
		   fl_probes_absent(), fl_probes_armed() ? "armed" : "not armed");
	for (i = 0; i < FL_C_NR; i++) {
		if (!fl_cnt_label[i])
			continue;
		if (FL_C_IS_LLW(i) && !fl_kv.ll_why)
			seq_printf(m, "  %-26s unavailable (no per-VMA locks)\n", fl_cnt_label[i]);
		else
			seq_printf(m, "  %-26s %llu\n", fl_cnt_label[i], t->cnt[i]);
	}
	seq_printf(m, "  (%s includes %llu kretprobe misses)\n\nlockless outcomes:\n",
		   fl_cnt_label[FL_C_MISSED], missed);
	for (i = 0; i < FL_LL_NR; i++) {
		if (fl_kv.ll_kind == FL_LL_KIND_NONE && i != FL_LL_NOT_ATTEMPTED &&
		    i != FL_LL_MMAP_RETRY)
			seq_printf(m, "  %-26s unavailable (no lockless path)\n", fl_ll_label[i]);
		else
			seq_printf(m, "  %-26s %llu\n", fl_ll_label[i], t->ll[i]);
	}
	seq_printf(m, "\nhistograms (ns): %-16s %12s %10s %10s %10s %10s %12s\n", "",
		   "count", "mean", "p50", "p90", "p99", "max");
	for (i = 0; i < FL_H_NR; i++) {
		const struct fl_hist *h = &t->hist[i];

		if (!h->count) {
			seq_printf(m, "  %-30s %12s\n", fl_hist_label[i], "0");
			continue;
		}
		seq_printf(m, "  %-30s %12llu %10llu %10llu %10llu %10llu %12llu\n",
			   fl_hist_label[i], h->count, div64_u64(h->sum, h->count),
			   fl_hist_quantile_ppm(h, 500000), fl_hist_quantile_ppm(h, 900000),
			   fl_hist_quantile_ppm(h, 990000), h->max);
	}
	kvfree(t);
	return 0;
}

static int fl_summary_open(struct inode *inode, struct file *file)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return single_open(file, fl_summary_show, NULL);
}

static const struct file_operations fl_summary_fops = {
	.owner = THIS_MODULE,
	.open = fl_summary_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ---- hooks --------------------------------------------------------------- */

static int fl_hooks_show(struct seq_file *m, void *v)
{
	fl_probes_show(m);
	return 0;
}

static int fl_hooks_open(struct inode *inode, struct file *file)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return single_open(file, fl_hooks_show, NULL);
}

static const struct file_operations fl_hooks_fops = {
	.owner = THIS_MODULE,
	.open = fl_hooks_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ---- control: the commands of control.c, refused while a session is held -- */

static ssize_t fl_control_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	return fl_control_write_user(file, ubuf, count, fl_session_refuses);
}

static int fl_control_open(struct inode *inode, struct file *file)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return nonseekable_open(inode, file);
}

static const struct file_operations fl_control_fops = {
	.owner = THIS_MODULE,
	.open = fl_control_open,
	.write = fl_control_write,
};

int fl_iface_init(void)
{
	fl_dir = debugfs_create_dir("faultline", NULL);
	if (IS_ERR_OR_NULL(fl_dir)) {
		pr_err("cannot create debugfs faultline/ (%ld); is debugfs enabled?\n",
		       fl_dir ? PTR_ERR(fl_dir) : -ENOMEM);
		fl_dir = NULL;
		return -ENODEV;
	}
	debugfs_create_file("snapshot", 0400, fl_dir, NULL, &fl_snapshot_fops);
	debugfs_create_file("summary", 0400, fl_dir, NULL, &fl_summary_fops);
	debugfs_create_file("hooks", 0400, fl_dir, NULL, &fl_hooks_fops);
	debugfs_create_file("control", 0600, fl_dir, NULL, &fl_control_fops);
	debugfs_create_file("session", 0600, fl_dir, NULL, &fl_session_fops);
	return 0;
}

void fl_iface_exit(void)
{
	debugfs_remove_recursive(fl_dir);
	fl_dir = NULL;
}
