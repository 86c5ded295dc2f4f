// SPDX-License-Identifier: GPL-2.0
/*
 * fl_usemm: test-only.  A kernel thread that borrows a process's mm
 * (kthread_use_mm, as vhost did before 6.4) and writes into its pages with
 * copy_to_user, so that it takes kernel-mode faults on user addresses.
 * faultline must not trace them (Documentation/architecture.rst, "Which
 * tasks and contexts count"); tests/integration/kthread_usemm.sh checks it.
 *
 *   insmod fl_usemm.ko pid=P addr=A pages=N
 *	the thread starts, parked until go; kthread_pid names it
 *   echo 1 >/sys/module/fl_usemm/parameters/go
 *	it writes FL_USEMM_BYTE at the start of each of the N pages from A,
 *	sets done to the number written (or -errno), then waits for rmmod
 */
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/wait.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 8, 0)
#define kthread_use_mm(mm)	use_mm(mm)
#define kthread_unuse_mm(mm)	unuse_mm(mm)
#include <linux/mmu_context.h>
#endif

#define FL_USEMM_BYTE	0xa5

static int pid;
module_param(pid, int, 0444);
static unsigned long addr;
module_param(addr, ulong, 0444);
static int pages;
module_param(pages, int, 0444);
static int kthread_pid;
module_param(kthread_pid, int, 0444);
static int done;
module_param(done, int, 0444);

static DECLARE_WAIT_QUEUE_HEAD(fl_go_wq);
static bool fl_go;

static int fl_go_set(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_bool(val, kp);

	if (!ret)
		wake_up(&fl_go_wq);
	return ret;
}

static const struct kernel_param_ops fl_go_ops = {
	.set = fl_go_set,
	.get = param_get_bool,
};
module_param_cb(go, &fl_go_ops, &fl_go, 0644);

static struct mm_struct *fl_mm;
static struct task_struct *fl_thread;

static int fl_usemm_write(void)
{
	u8 b = FL_USEMM_BYTE;
	int i;

	kthread_use_mm(fl_mm);
	for (i = 0; i < pages; i++) {
		if (copy_to_user((void __user *)(addr + (unsigned long)i * PAGE_SIZE), &b, 1))
			break;
	}
	kthread_unuse_mm(fl_mm);
	return i == pages ? i : -EFAULT;
}

static int fl_usemm_fn(void *unused)
{
	wait_event_interruptible(fl_go_wq, READ_ONCE(fl_go) || kthread_should_stop());
	if (READ_ONCE(fl_go))
		WRITE_ONCE(done, fl_usemm_write());
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static int __init fl_usemm_init(void)
{
	struct task_struct *t;
	struct pid *p;

	if (pages <= 0 || !addr)
		return -EINVAL;
	p = find_get_pid(pid);
	t = get_pid_task(p, PIDTYPE_PID);
	put_pid(p);
	if (!t)
		return -ESRCH;
	fl_mm = get_task_mm(t);
	put_task_struct(t);
	if (!fl_mm)
		return -EINVAL;
	fl_thread = kthread_run(fl_usemm_fn, NULL, "fl_usemm");
	if (IS_ERR(fl_thread)) {
		mmput(fl_mm);
		return PTR_ERR(fl_thread);
	}
	kthread_pid = fl_thread->pid;
	return 0;
}

static void __exit fl_usemm_exit(void)
{
	kthread_stop(fl_thread);
	mmput(fl_mm);
}

module_init(fl_usemm_init);
module_exit(fl_usemm_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("faultline test: a kernel thread writing through a borrowed mm");
