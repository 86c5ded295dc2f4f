// SPDX-License-Identifier: GPL-2.0
/*
 * One recording at a time, and its life is an open file: debugfs
 * faultline/session.  Opening it claims the module (a second open gets
 * EBUSY; `summary` names the holder), takes a module reference (rmmod
 * fails while a recording runs) and makes the control file refuse other
 * writers.  Commands are written to the session file itself.  Its release,
 * by close() or by the holder's death (SIGKILL included), disables: the
 * hooks are never left armed by a recorder that is gone, the way a BPF
 * link goes with its fd.  Counts stay readable after it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "faultline.h"

/* fl_mutex protects all three */
static struct file *fl_sess_file;
static pid_t fl_sess_tgid;
static char fl_sess_comm[TASK_COMM_LEN];

bool fl_session_refuses(struct file *file)
{
	lockdep_assert_held(&fl_mutex);
	return fl_sess_file && fl_sess_file != file;
}

void fl_session_show(struct seq_file *m)
{
	mutex_lock(&fl_mutex);
	if (fl_sess_file)
		seq_printf(m, "session: held by pid %d (%s)\n", fl_sess_tgid, fl_sess_comm);
	else
		seq_puts(m, "session: none\n");
	mutex_unlock(&fl_mutex);
}

static int fl_session_open(struct inode *inode, struct file *file)
{
	int err = 0;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	mutex_lock(&fl_mutex);
	if (fl_sess_file) {
		err = -EBUSY;
	} else {
		fl_sess_file = file;
		fl_sess_tgid = task_tgid_vnr(current);
		get_task_comm(fl_sess_comm, current);
		__module_get(THIS_MODULE);	/* no rmmod under a recording */
	}
	mutex_unlock(&fl_mutex);
	return err ? err : nonseekable_open(inode, file);
}

static ssize_t fl_session_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	return fl_control_write_user(file, ubuf, count);
}

static int fl_session_release(struct inode *inode, struct file *file)
{
	mutex_lock(&fl_mutex);
	if (fl_sess_file == file) {
		fl_disable();
		fl_sess_file = NULL;
		module_put(THIS_MODULE);
	}
	mutex_unlock(&fl_mutex);
	return 0;
}

const struct file_operations fl_session_fops = {
	.owner = THIS_MODULE,
	.open = fl_session_open,
	.write = fl_session_write,
	.release = fl_session_release,
};
