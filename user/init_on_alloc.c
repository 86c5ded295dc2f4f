// SPDX-License-Identifier: GPL-2.0
/* Where the kernel zeroes user pages: init_on_alloc (init_on_alloc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "init_on_alloc.h"
#include "kboot.h"

/* kstrtobool()'s reading: 1, 0, or -1 where the kernel rejects the value */
static int kbool(const char *v, size_t n)
{
	if (!n)
		return -1;
	switch (v[0]) {
	case 'y': case 'Y': case '1':
		return 1;
	case 'n': case 'N': case '0':
		return 0;
	case 'o': case 'O':
		if (n > 1 && (v[1] == 'n' || v[1] == 'N'))
			return 1;
		if (n > 1 && (v[1] == 'f' || v[1] == 'F'))
			return 0;
	}
	return -1;
}

/* The last valid init_on_alloc= of CMDLINE (early_param: each one sets it), or -1. */
static int from_cmdline(const char *cmdline)
{
	const char *pos = cmdline, *v;
	size_t n;
	int on = -1;

	while ((v = fl_cmdline_next(&pos, "init_on_alloc", &n))) {
		int b = kbool(v, n);

		if (b >= 0)
			on = b;
	}
	return on;
}

/* CONFIG_INIT_ON_ALLOC_DEFAULT_ON in a config file (plain or gzip): 1, 0, or -1 unreadable. */
static int from_config(const char *path)
{
	static const char key[] = "CONFIG_INIT_ON_ALLOC_DEFAULT_ON=";
	char line[512];
	gzFile f = gzopen(path, "rb");
	int on = 0;

	if (!f)
		return -1;
	while (gzgets(f, line, sizeof(line))) {
		if (!strncmp(line, key, sizeof(key) - 1)) {
			on = line[sizeof(key) - 1] == 'y';
			break;
		}
	}
	gzclose(f);
	return on;	/* a config without the line: not set */
}

/* uname -r is 6.13 or later (user_alloc_needs_zeroing()) */
static bool release_skips_user_zeroing(const char *release)
{
	unsigned int major, minor;

	if (fl_release_version(release, &major, &minor))
		return false;
	return major > 6 || (major == 6 && minor >= 13);
}

int fl_alloc_zeroes_user_pages_from(const char *release, const char *cmdline,
				    const char *const *configs, char *src, size_t len)
{
	int on;

	if (src && len)
		src[0] = 0;
	if (!release_skips_user_zeroing(release)) {
		if (src && len)
			snprintf(src, len, "%s: before 6.13, folio_zero_user() zeroes whatever "
				 "init_on_alloc says", release);
		return 0;
	}
	on = cmdline ? from_cmdline(cmdline) : -1;
	if (on >= 0) {
		if (src && len)
			snprintf(src, len, "init_on_alloc=%d on the command line", on);
		return on;
	}
	for (; configs && *configs; configs++) {
		on = from_config(*configs);
		if (on < 0)
			continue;
		if (src && len)
			snprintf(src, len, "CONFIG_INIT_ON_ALLOC_DEFAULT_ON=%s in %s", on ? "y" : "n",
				 *configs);
		return on;
	}
	if (src && len)
		snprintf(src, len, "init_on_alloc unknown: no init_on_alloc= on the command line, "
			 "no /boot/config-%s, no /proc/config.gz", release);
	return -1;
}

int fl_alloc_zeroes_user_pages(char *src, size_t len)
{
	static int got = -2;
	static char why[192];
	char cmdline[4096] = "", boot[sizeof("/boot/config-") + sizeof(((struct utsname *)0)->release)];
	const char *configs[] = { boot, "/proc/config.gz", NULL };
	struct utsname u;
	bool have_cmdline;

	if (got == -2) {
		if (uname(&u)) {
			snprintf(why, sizeof(why), "unknown: uname failed");
			got = -1;
			goto out;
		}
		have_cmdline = !fl_cmdline_read(cmdline, sizeof(cmdline));
		snprintf(boot, sizeof(boot), "/boot/config-%s", u.release);
		got = fl_alloc_zeroes_user_pages_from(u.release, have_cmdline ? cmdline : NULL,
						      configs, why, sizeof(why));
	}
out:
	if (src && len)
		snprintf(src, len, "%s", why);
	return got;
}
