// SPDX-License-Identifier: GPL-2.0
/* The kernel's preemption model, read once (preempt_model.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "kboot.h"
#include "kfeatures.h"
#include "preempt_model.h"

static bool probe_preemptible(void)
{
	char buf[4096] = "";	/* a command line: COMMAND_LINE_SIZE on x86 is 2048 */
	struct utsname u;
	unsigned int major, minor;
	const char *e = getenv("FAULTLINE_PREEMPT_GUARD");
	FILE *f;

	if (e && *e)
		return *e == '1';
	/* PREEMPT_DYNAMIC: the mode in effect, in parentheses */
	f = fopen("/sys/kernel/debug/sched/preempt", "re");
	if (f) {
		bool got = fgets(buf, sizeof(buf), f) != NULL;

		fclose(f);
		if (got && strchr(buf, '('))
			return strstr(buf, "(full)") || strstr(buf, "(lazy)");
	}
	/* preempt= (__setup: each valid one sets the mode) */
	if (!fl_cmdline_read(buf, sizeof(buf))) {
		const char *pos = buf, *v;
		size_t n;
		int on = -1;

		while ((v = fl_cmdline_next(&pos, "preempt", &n))) {
			if ((n == 4 && !strncmp(v, "full", 4)) || (n == 4 && !strncmp(v, "lazy", 4)))
				on = 1;
			else if ((n == 4 && !strncmp(v, "none", 4)) ||
				 (n == 9 && !strncmp(v, "voluntary", 9)))
				on = 0;
		}
		if (on >= 0)
			return on;
	}
	if (uname(&u))
		return false;
	/* a static model, or a kernel (7.x) whose only modes are preemptible */
	return strstr(u.version, "PREEMPT_RT") || strstr(u.version, "PREEMPT_LAZY") ||
	       (strstr(u.version, " PREEMPT ") && !strstr(u.version, "PREEMPT_DYNAMIC")) ||
	       (!fl_release_version(u.release, &major, &minor) && major >= 7);
}

bool fl_kernel_preemptible(void)
{
	static int preempts = -1;

	if (preempts < 0)
		preempts = probe_preemptible();
	return preempts;
}

bool fl_preempt_guard(const struct fl_kfeatures *kf, const char **why)
{
	static const char *text;
	static int want = -1;

	if (want < 0) {
		if (!fl_kernel_preemptible()) {
			want = 0;
			text = "off (kernel not preemptible)";
		} else if (!kf->preempt_kfunc) {
			want = 0;
			text = "off (preemptible, no bpf_preempt_disable kfunc)";
		} else {
			want = 1;
			text = "on (preemptible kernel)";
		}
	}
	if (why)
		*why = text;
	return want;
}
