// SPDX-License-Identifier: GPL-2.0
/*
 * One backend selection and start for every collector (user/backend.h):
 * record and serve ask for the same thing and get the same answer, with the
 * same lines on stderr.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "backend_kmod.h"
#include "errbuf.h"

/*
 * What a collector asks of a backend: start (at a tier, or only that tier),
 * read the counts since the start, rotate (read and begin a new window),
 * stop.  The module cannot rotate.
 */
struct fl_be_ops {
	unsigned int id;	/* FL_BACKEND_* */
	int (*start)(struct fl_be *be, unsigned int tier, bool exact, char *err, size_t errlen);
	int (*read)(struct fl_be *be, struct fl_snapshot *s, char *err, size_t errlen);
	int (*rotate)(struct fl_be *be, struct fl_snapshot *s, char *err, size_t errlen);
	int (*arm)(struct fl_be *be, char *err, size_t errlen);
	int (*end)(struct fl_be *be, char *err, size_t errlen);	/* NULL: nothing to do */
	void (*stop)(struct fl_be *be);
};

static int bpf_start(struct fl_be *be, unsigned int tier, bool exact, char *err,
		     size_t errlen)
{
	struct fl_bpf_opts o = be->req.bpf;

	o.tier = tier;
	o.exact = exact;
	o.tgids = fl_be_tgids(be);
	be->bpf = fl_bpf_start(&o, err, errlen);
	return be->bpf ? 0 : -1;
}

static int bpf_read(struct fl_be *be, struct fl_snapshot *s, char *err, size_t errlen)
{
	return fl_bpf_read(be->bpf, s, false, err, errlen);
}

static int bpf_rotate(struct fl_be *be, struct fl_snapshot *s, char *err, size_t errlen)
{
	return fl_bpf_read(be->bpf, s, true, err, errlen);
}

static int bpf_arm(struct fl_be *be, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	fl_bpf_arm(be->bpf);
	return 0;
}

static int bpf_end(struct fl_be *be, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return fl_bpf_end(be->bpf);
}

static void bpf_stop(struct fl_be *be)
{
	fl_bpf_stop(be->bpf);
	be->bpf = NULL;
}

/*
 * --mmap-lock / --handle-mm-fault (or back to the module's defaults) for
 * the enable fl_kmod_start sends
 */
static int kmod_start_be(struct fl_be *be, unsigned int tier, bool exact, char *err,
			 size_t len)
{
	(void)tier;	/* the module has the kprobe tier only (the parsers refuse --tier) */
	(void)exact;
	if (fl_kmod_mmap_lock(be->req.bpf.mmap_lock, err, len))
		return -1;
	if (fl_kmod_time_hmf(be->req.bpf.time_hmf, err, len))
		return -1;
	/* refused (hooks absent: 5.10 has no mmap_lock tracepoints): said, not fatal */
	if (fl_kmod_blame(be->req.blame, be->kmod_blame_why, sizeof(be->kmod_blame_why)) &&
	    !be->req.blame)
		return fl_fail(err, len, "%s", be->kmod_blame_why);
	return fl_kmod_start(be->req.bpf.tgid, err, len);
}

static int kmod_read_be(struct fl_be *be, struct fl_snapshot *s, char *err, size_t errlen)
{
	(void)be;
	return fl_kmod_read(s, err, errlen);
}

static int kmod_arm_be(struct fl_be *be, char *err, size_t errlen)
{
	(void)be;
	return fl_kmod_arm(err, errlen);
}

static void kmod_stop_be(struct fl_be *be)
{
	(void)be;
	fl_kmod_stop();
}

static const struct fl_be_ops ops_bpf = {
	.id = FL_BACKEND_BPF, .start = bpf_start, .read = bpf_read, .rotate = bpf_rotate,
	.arm = bpf_arm, .end = bpf_end, .stop = bpf_stop,
};

static const struct fl_be_ops ops_kmod = {
	.id = FL_BACKEND_KMOD, .start = kmod_start_be, .read = kmod_read_be, .arm = kmod_arm_be,
	.stop = kmod_stop_be,
};

static int be_start(struct fl_be *be, const struct fl_be_ops *ops, unsigned int tier,
		    bool exact, char *err, size_t errlen)
{
	if (ops->start(be, tier, exact, err, errlen))
		return -1;
	be->ops = ops;
	be->id = ops->id;
	return 0;
}

static const char *not_measured(unsigned int tier)
{
	switch (tier) {
	case FL_TIER_KPROBE:
		return "kprobe tier: kprobe/kretprobe cost more per fault than fentry";
	case FL_TIER_TRACEPOINT:
		return "tracepoint tier: measuring fault counts, mmap_lock wait/hold and contention;\n"
		       "  fault latency, handle_mm_fault duration and lockless-path outcomes are unavailable";
	}
	return NULL;
}

static void say(const struct fl_be *be, const char *notes)
{
	if (!be->req.quiet)
		fl_say_lines(be->req.cmd, notes);
}

/* A locked-down kernel refuses much of BPF tracing: say so when it is. */
static void lockdown_hint(const char *cmd)
{
	char buf[128], *l, *rb;
	FILE *f = fopen("/sys/kernel/security/lockdown", "re");

	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f) && (l = strchr(buf, '[')) && (rb = strchr(l, ']'))) {
		*rb = '\0';
		if (strcmp(l + 1, "none"))
			fprintf(stderr, "faultline %s: the kernel is locked down (%s): "
				"it refuses BPF programs that read kernel memory\n", cmd, l + 1);
	}
	fclose(f);
}

struct fl_tgid_filter *fl_be_tgids(struct fl_be *be)
{
	return be->req.bpf.system_wide ? NULL : &be->tgids;
}

int fl_be_start(struct fl_be *be, const struct fl_be_req *req)
{
	const char *cmd = req->cmd;
	char err[2048], kerr[512] = "";
	char fentry_err[2048] = "", kmsg[600] = "";

	memset(be, 0, sizeof(*be));
	be->req = *req;
	be->id = FL_BACKEND_NONE;
	fl_tgid_filter_init(&be->tgids, req->bpf.system_wide ? 0 : req->bpf.tgid);
	if (req->backend_req == FL_REC_B_KMOD) {
		if (!fl_kmod_loaded()) {
			fprintf(stderr, "faultline %s: faultline.ko is not loaded (insmod module/faultline.ko)\n",
				cmd);
			return -1;
		}
		if (be_start(be, &ops_kmod, FL_TIER_KPROBE, true, kerr, sizeof(kerr))) {
			fprintf(stderr, "faultline %s: kmod backend: %s\n", cmd, kerr);
			return -1;
		}
		if (!req->quiet)
			fprintf(stderr, "faultline %s: kmod backend (faultline.ko, kprobe tier)\n", cmd);
		return 0;
	}
	if (req->backend_req == FL_REC_B_BPF || req->tier_req) {
		if (be_start(be, &ops_bpf, req->tier_req, req->tier_req != 0, err, sizeof(err))) {
			fprintf(stderr, "faultline %s: bpf backend unavailable:\n", cmd);
			fl_say_lines(cmd, err);
			return -1;
		}
		goto bpf_ok;
	}
	/* auto: fentry, then the module if loaded, then kprobe, then tracepoint */
	if (!be_start(be, &ops_bpf, FL_TIER_FENTRY, true, fentry_err, sizeof(fentry_err)))
		goto bpf_ok;
	if (req->no_kmod) {
		snprintf(kmsg, sizeof(kmsg), "kmod backend: not with these options (the module "
			 "filters one thread group)");
	} else if (fl_kmod_loaded()) {
		if (!be_start(be, &ops_kmod, FL_TIER_KPROBE, true, kerr, sizeof(kerr))) {
			say(be, fentry_err);
			if (!req->quiet)
				fprintf(stderr, "faultline %s: using the kmod backend: faultline.ko is loaded "
					"and the bpf fentry tier is not allowed\n", cmd);
			return 0;
		}
		snprintf(kmsg, sizeof(kmsg), "faultline.ko is loaded but refused: %s", kerr);
	} else {
		snprintf(kmsg, sizeof(kmsg), "kmod backend: faultline.ko is not loaded");
	}
	if (be_start(be, &ops_bpf, FL_TIER_KPROBE, false, err, sizeof(err))) {
		fprintf(stderr, "faultline %s: nothing can be measured here:\n", cmd);
		fl_say_lines(cmd, fentry_err);
		if (strcmp(err, fentry_err))
			fl_say_lines(cmd, err);
		fl_say_lines(cmd, kmsg);
		if (geteuid() != 0)
			fprintf(stderr, "faultline %s: not running as root: loading BPF needs "
				"CAP_BPF + CAP_PERFMON (or root)\n", cmd);
		lockdown_hint(cmd);
		return -1;
	}
	say(be, fentry_err);
	say(be, kmsg);
bpf_ok:
	say(be, fl_bpf_notes(be->bpf));
	if (!req->quiet) {
		const char *nm = not_measured(fl_bpf_tier(be->bpf));

		fprintf(stderr, "faultline %s: bpf backend, tier %s\n", cmd,
			fl_tier_describe(fl_bpf_tier(be->bpf)));
		if (nm)
			fprintf(stderr, "faultline %s: %s\n", cmd, nm);
	}
	return 0;
}

bool fl_be_can_rotate(const struct fl_be *be)
{
	return be->ops && be->ops->rotate;
}

int fl_be_read(struct fl_be *be, struct fl_snapshot *s, bool rotate, char *err,
		    size_t errlen)
{
	unsigned long long m = 1ULL << FL_HOOK_MMAP_START;
	char why[128];
	int ret;

	if (!be->ops)
		return fl_fail(err, errlen, "no backend");
	ret = rotate && be->ops->rotate ? be->ops->rotate(be, s, err, errlen) :
	      be->ops->read(be, s, err, errlen);
	if (ret || be->id != FL_BACKEND_KMOD)
		return ret;
	s->hdr.filter_tgid = be->req.bpf.tgid;
	/* the module holds them off where the bpf backend does, by abi.h's rule */
	if (!(s->hdr.hooks_live & m) && !(s->hdr.hooks_absent & m) &&
	    fl_mmap_lock_keep_off(!!(s->hdr.flags & FL_SNAP_F_MMAP_MEMCG_PROTO),
				  s->hdr.lockless_kind, be->req.bpf.mmap_lock) &&
	    fl_snapshot_set_tag(s, FL_TAG_MMAP_LOCK_OFF, FL_MMAP_LOCK_OFF_WHY)) {
		return fl_fail(err, errlen, "snapshot tag '%s' refused (no memory)", FL_TAG_MMAP_LOCK_OFF);
	}
	snprintf(why, sizeof(why), "not timed by default: a clock read more on every call "
		 "(%s --handle-mm-fault times it)", be->req.cmd);
	if (!be->req.bpf.time_hmf && fl_snapshot_set_tag(s, FL_TAG_HMF_OFF, why))
		return fl_fail(err, errlen, "snapshot tag '%s' refused (no memory)", FL_TAG_HMF_OFF);
	return 0;
}

int fl_be_arm(struct fl_be *be, char *err, size_t errlen)
{
	return be->ops ? be->ops->arm(be, err, errlen) : 0;
}

int fl_be_end(struct fl_be *be, char *err, size_t errlen)
{
	return be->ops && be->ops->end ? be->ops->end(be, err, errlen) : 0;
}

void fl_be_stop(struct fl_be *be)
{
	if (be->ops)
		be->ops->stop(be);
	fl_tgid_filter_close(&be->tgids);
	be->ops = NULL;
	be->bpf = NULL;
	be->id = FL_BACKEND_NONE;
}
