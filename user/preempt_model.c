// SPDX-License-Identifier: GPL-2.0
/* The kernel's preemption model, read once (preempt_model.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "kfeatures.h"
#include "preempt_model.h"

static bool probe_preemptible(void)
{
	char buf[512] = "";
	struct utsname u;
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
	f = fopen("/proc/cmdline", "re");
	if (f) {
		bool got = fgets(buf, sizeof(buf), f) != NULL;

		fclose(f);
		if (got && (strstr(buf, "preempt=full") || strstr(buf, "preempt=lazy")))
			return true;
		if (got && (strstr(buf, "preempt=none") || strstr(buf, "preempt=voluntary")))
			return false;
	}
	if (uname(&u))
		return false;
	/* a static model, or a kernel (7.x) whose only modes are preemptible */
	return strstr(u.version, "PREEMPT_RT") || strstr(u.version, "PREEMPT_LAZY") ||
	       (strstr(u.version, " PREEMPT ") && !strstr(u.version, "PREEMPT_DYNAMIC")) ||
	       strtol(u.release, NULL, 10) >= 7;
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
