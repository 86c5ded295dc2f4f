// SPDX-License-Identifier: GPL-2.0
/*
 * The module backend of the collector: faultline.ko keeps the per-CPU
 * statistics; this file holds its session file (one recording at a time),
 * sends the commands through it and reads its snapshot,
 * which has exactly the layout of a snapshot file (include/faultline/abi.h),
 * so user/snapshot.c parses it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend_kmod.h"
#include "errbuf.h"

static const char *kmod_dir(void)
{
	const char *d = getenv("FAULTLINE_KMOD_DIR");

	return d && *d ? d : FL_KMOD_DIR;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Is faultline listed in /proc/modules? */
static int module_listed(void)
{
	char line[256];
	FILE *f = fopen("/proc/modules", "re");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = strncmp(line, "faultline ", 10) == 0;
	fclose(f);
	return found;
}

int fl_kmod_loaded(void)
{
	if (is_dir(kmod_dir()))
		return 1;
	if (getenv("FAULTLINE_KMOD_DIR") || !module_listed())
		return 0;
	/* Loaded, but debugfs is not mounted where we look: mount it (root only). */
	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) && errno != EBUSY)
		return 0;
	return is_dir(kmod_dir());
}

/*
 * The recording's session (module/session.c): an open file that holds the
 * module, takes the commands, and disarms when it closes or we die.
 * O_CLOEXEC: the workload must not inherit it.
 */
static int kmod_sess_fd = -1;

/* "pid N (comm)" of the session's holder, from the summary, or "unknown" */
static void kmod_holder(char *buf, size_t len)
{
	char path[512], line[256];
	FILE *f;

	snprintf(buf, len, "unknown");
	snprintf(path, sizeof(path), "%s/summary", kmod_dir());
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "session: held by ", 17)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%s", line + 17);
			break;
		}
	}
	fclose(f);
}

static int kmod_session_open(char *err, size_t errlen)
{
	char path[512], who[256];

	if (kmod_sess_fd >= 0)
		return 0;
	snprintf(path, sizeof(path), "%s/session", kmod_dir());
	kmod_sess_fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (kmod_sess_fd >= 0)
		return 0;
	if (errno == EBUSY) {
		kmod_holder(who, sizeof(who));
		return fl_fail(err, errlen, "faultline.ko is in use by another recording, %s: one at a time",
			       who);
	}
	if (errno == ENOENT)
		return fl_fail(err, errlen, "%s: not there: load the faultline.ko built with this collector",
			       path);
	return fl_fail(err, errlen, "%s: %s", path, strerror(errno));
}

static int kmod_control(const char *cmd, char *err, size_t errlen)
{
	char buf[80];
	int n;
	ssize_t w;

	if (kmod_session_open(err, errlen))
		return -1;
	n = snprintf(buf, sizeof(buf), "%s\n", cmd);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return fl_fail(err, errlen, "control command '%s' too long", cmd);
	do {
		w = write(kmod_sess_fd, buf, n);
	} while (w < 0 && errno == EINTR);
	if (w != n) {
		int e = w < 0 ? errno : EIO;

		if (e == ESRCH)
			return fl_fail(err, errlen, "faultline.ko refused '%s': no such process", cmd);
		return fl_fail(err, errlen, "faultline.ko refused '%s': %s", cmd, strerror(e));
	}
	return 0;
}

int fl_kmod_start(unsigned int tgid, char *err, size_t errlen)
{
	char cmd[32];

	/* Disabled while the filter and the counts change: nothing from before leaks in. */
	if (kmod_control("disable", err, errlen))
		return -1;
	snprintf(cmd, sizeof(cmd), "tgid %u", tgid);
	return kmod_control(cmd, err, errlen);
}

int fl_kmod_arm(char *err, size_t errlen)
{
	if (kmod_control("reset", err, errlen) || kmod_control("enable", err, errlen))
		return -1;
	return 0;
}

int fl_kmod_blame(bool on, char *err, size_t errlen)
{
	return kmod_control(on ? "blame on" : "blame off", err, errlen);
}

int fl_kmod_mmap_lock(bool on, char *err, size_t errlen)
{
	return kmod_control(on ? "mmap_lock on" : "mmap_lock auto", err, errlen);
}

/* record --handle-mm-fault: time each handle_mm_fault call (a clock read more per call) */
int fl_kmod_time_hmf(bool on, char *err, size_t errlen)
{
	return kmod_control(on ? "hmf on" : "hmf off", err, errlen);
}

int fl_kmod_read(struct fl_snapshot *s, char *err, size_t errlen)
{
	char path[512], why[384];
	int fd, ret;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/snapshot", kmod_dir());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fl_fail(err, errlen, "%s: %s", path, strerror(errno));
	/*
	 * debugfs reports size 0: parse while reading to EOF, the CPU section
	 * straight into s->cpus.  One open = one consistent snapshot.
	 */
	ret = fl_snapshot_read_fd(fd, -1, s, why, sizeof(why));
	close(fd);
	if (ret)
		return fl_fail(err, errlen, "%s: %s", path, why);
	if (s->hdr.backend != FL_BACKEND_KMOD) {
		unsigned int b = s->hdr.backend;

		fl_snapshot_free(s);
		return fl_fail(err, errlen, "%s: snapshot says backend %u, not kmod", path, b);
	}
	return 0;
}

void fl_kmod_stop(void)
{
	char err[256];

	if (kmod_sess_fd < 0)
		return;
	if (kmod_control("disable", err, sizeof(err)))
		fprintf(stderr, "faultline: kmod backend: %s\n", err);
	close(kmod_sess_fd);	/* the module disables at release anyway */
	kmod_sess_fd = -1;
}
