/* SPDX-License-Identifier: GPL-2.0 */
/*
 * faultline serve: the cumulative in-memory model the collection loop fills
 * from backend reads, rendered as Prometheus text by export_prom.c (the one
 * exposition writer) plus the families only a live exporter has.  The model
 * and its rendering know nothing of HTTP (user/serve_http.c) or of the
 * backends (user/cmd/cmd_serve.c), so the unit tests drive them directly.
 */
#ifndef FAULTLINE_SERVE_H
#define FAULTLINE_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "export.h"
#include "selfcost.h"
#include "snapshot.h"

#define FL_SERVE_MAX_PROGS 64

struct fl_serve_model {
	enum fl_export_by by;		/* FL_EXP_BY_TOTAL unless --per-cpu / --by */
	enum fl_prom_buckets prom_buckets;	/* --prom-buckets (coarse by default) */
	const char *run;		/* the run label */
	const char *topo_root;		/* for --by llc|node: "/" = this machine */
	unsigned int nr_cpus;
	struct fl_cpu_stats *base;	/* counts of earlier backend sessions (SIGHUP) */
	struct fl_cpu_stats *sess;	/* counts of this session, cumulative */
	struct fl_snapshot last;	/* header, tags, vmstat of the latest read (cpus NULL) */
	struct fl_snapshot machine;	/* tags only: this machine's (user/tags.c), or none */
	bool have_read;
	unsigned long long start_real_ns, start_mono_ns, now_mono_ns;
	/* largest fault latency since the previous scrape (ns), and whether
	 * a latency sample was seen since then */
	unsigned long long peak_ns;
	struct fl_selfcost_entry cost[FL_SERVE_MAX_PROGS];
	unsigned int ncost;
	unsigned long long reads, read_errors, sessions;
	/* the rendered body: one buffer, grown to what the model needs */
	char *buf;
	size_t cap, len;
};

/* Zeroed model for nr_cpus; 0 or -1 (no memory). */
int fl_serve_model_init(struct fl_serve_model *m, unsigned int nr_cpus);
void fl_serve_model_free(struct fl_serve_model *m);

/*
 * Fold one backend read into the model.  window: s holds only what happened
 * since the previous read of this session (bpf, rotated); else s is the
 * session's cumulative count (kmod).  s->cpus beyond the model's nr_cpus are
 * ignored.  s's header, tags and vmstat section are kept (s is left empty:
 * its tags and vmstat are moved).  0 or -1 + err.
 */
int fl_serve_model_add(struct fl_serve_model *m, struct fl_snapshot *s, bool window,
		       char *err, size_t errlen);
/* A new backend session starts (SIGHUP): what was counted stays counted. */
void fl_serve_model_new_session(struct fl_serve_model *m);

/* Render the body into m->buf / m->len.  0 or -1 + err. */
int fl_serve_render(struct fl_serve_model *m, char *err, size_t errlen);

/*
 * serve -o: write what /metrics shows -- every session's counts since serve
 * started, the latest read's header, tags and vmstat -- as one snapshot that
 * report / export / compare read like a record's (atomic: temp + rename).
 * 0 or -1 + err.
 */
int fl_serve_model_save(struct fl_serve_model *m, const char *path, char *err, size_t errlen);

/*
 * The per-scrape families (the latency peak since the previous scrape,
 * then reset) written after the body into buf (at most len bytes);
 * returns the length written.  has_latency: the tier measures latency.
 */
size_t fl_serve_scrape_tail(struct fl_serve_model *m, char *buf, size_t len);

/* faultline serve's options (user/cmd_serve.c; parser as in commands.h) */
#define FL_SERVE_DEFAULT_LISTEN "127.0.0.1:9477"
struct fl_serve_args {
	const char *listen;
	int backend_req;		/* FL_REC_B_* */
	unsigned int tier_req;
	unsigned int pid;		/* 0: system-wide (or --cgroup) */
	const char *cgroup;		/* --cgroup PATH: the tasks in PATH/cgroup.procs */
	bool per_cpu;
	int by;				/* enum fl_export_by */
	enum fl_prom_buckets prom_buckets;	/* --prom-buckets coarse|full */
	double interval, duration;
	const char *textfile;		/* directory, or NULL */
	const char *output;		/* -o: the snapshot written at exit, or NULL */
	const char *run;
	bool self_cost, time_hmf, mmap_lock, quiet;
	const char *hmf_opt;		/* the spelling given: --handle-mm-fault or --hmf */
};
int parse_serve_args(int argc, char **argv, struct fl_serve_args *a, char *err, size_t errlen);

/*
 * The same exposition as OpenMetrics 1.0.0 text (for a scraper whose Accept
 * asks for application/openmetrics-text): counter families named without
 * their _total suffix in HELP/TYPE (samples keep it), "# EOF" at the end.
 * out must hold len + FL_SERVE_OM_EXTRA bytes; returns the length written.
 */
#define FL_SERVE_OM_EXTRA 8
size_t fl_serve_openmetrics(const char *in, size_t len, char *out);
/* Does an Accept header ask for OpenMetrics (before or over text/plain)? */
bool fl_serve_wants_openmetrics(const char *accept);

#endif
