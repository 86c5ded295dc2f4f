// SPDX-License-Identifier: GPL-2.0
/*
 * The control language: one command per write to debugfs faultline/control
 * or to the session file (session.c), serialised by fl_mutex.
 *
 *   enable | disable            arm the hooks and count | stop and unhook
 *   tgid N                      trace process N and its later children (filter.c)
 *   mmap_lock on | auto         arm the held-off mmap_lock hooks (probes.c)
 *   blame on | off              holder attribution at the next arming (blame.c)
 *   hmf on | off                time each handle_mm_fault call
 *   reset                       zero the counts
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/uaccess.h>

#include "faultline.h"
#include "stats.h"

#define FL_CTL_MAX	64

/*
 * Serialises every command, the session (session.c) and the snapshot and
 * summary reads (iface.c); what they call below asserts it held.
 */
DEFINE_MUTEX(fl_mutex);

/*
 * Strict unsigned parse for the parameters and the control file: a digit
 * first (kstrtouint alone takes a '+' sign) and no newline anywhere
 * (kstrtouint takes one trailing newline; the control file already strips
 * the one it accepts).
 */
int fl_parse_uint(const char *s, unsigned int base, unsigned int *v)
{
	size_t len = strlen(s);

	if (!len || !isdigit(s[0]) || s[len - 1] == '\n')
		return -EINVAL;
	return kstrtouint(s, base, v) ? -EINVAL : 0;
}

/* One command; fl_mutex held. */
static int fl_control_exec(const char *cmd)
{
	unsigned int v;

	lockdep_assert_held(&fl_mutex);
	if (!strcmp(cmd, "enable")) {
		fl_enable();
	} else if (!strcmp(cmd, "disable")) {
		fl_disable();
	} else if (!strcmp(cmd, "mmap_lock on") || !strcmp(cmd, "mmap_lock auto")) {
		fl_probes_mmap_lock(cmd[10] == 'o');
	} else if (!strcmp(cmd, "blame on") || !strcmp(cmd, "blame off")) {
		return fl_probes_blame(cmd[7] == 'n');
	} else if (!strcmp(cmd, "hmf on") || !strcmp(cmd, "hmf off")) {
		/* takes effect at the next handle_mm_fault entry; a call in flight keeps t0 */
		WRITE_ONCE(fl_time_hmf, cmd[5] == 'n');
	} else if (!strcmp(cmd, "reset")) {
		fl_stats_reset();
		fl_blame_reset();
		fl_probes_blame_reset();
		fl_nmissed_base = fl_probes_nmissed();
	} else if (!strncmp(cmd, "tgid ", 5)) {
		if (fl_parse_uint(cmd + 5, 10, &v) || v > PID_MAX_LIMIT)
			return -EINVAL;
		return fl_set_tgid(v);
	} else {
		return -EINVAL;
	}
	return 0;
}

/*
 * A write to control (iface.c) or to the session file (session.c): one
 * command, at most one trailing newline.  EBUSY when REFUSES (NULL: never)
 * says FILE may not write now, asked under fl_mutex: while another file
 * holds the session (fl_session_refuses()).
 */
ssize_t fl_control_write_user(struct file *file, const char __user *ubuf, size_t count,
			      bool (*refuses)(struct file *file))
{
	char buf[FL_CTL_MAX + 1];
	size_t len = count;
	int err;

	if (count > FL_CTL_MAX)
		return -E2BIG;
	if (!count)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[len] = '\0';
	if (buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (!len || strlen(buf) != len)	/* empty, or an embedded NUL */
		return -EINVAL;
	mutex_lock(&fl_mutex);
	err = refuses && refuses(file) ? -EBUSY : fl_control_exec(buf);
	mutex_unlock(&fl_mutex);
	return err ? err : count;
}
