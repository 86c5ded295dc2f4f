// SPDX-License-Identifier: GPL-2.0
/*
 * faultline serve's option parser (parse_serve_args, user/serve.h) and its
 * --listen address parser (fl_http_parse_listen): what they accept, the
 * one-line reasons they refuse with.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "commands.h"
#include "serve.h"
#include "serve_http.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

static char err[512];

static void test_defaults(void **state)
{
	struct fl_serve_args a;
	char **v = ARGV("serve");

	(void)state;
	assert_int_equal(parse_serve_args(1, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_string_equal(a.listen, "127.0.0.1:9477");
	assert_int_equal(a.by, FL_EXP_BY_TOTAL);
	assert_int_equal(a.pid, 0);
	assert_true(a.interval == 1.0);
	assert_null(a.textfile);
	assert_null(a.output);
	assert_string_equal(a.run, "serve");
}

static void test_options(void **state)
{
	struct fl_serve_args a;
	char **v;

	(void)state;
	v = ARGV("serve", "--listen", "[::1]:9100", "-p", "42", "--per-cpu", "-i", "0.5",
		 "--textfile", "/tmp", "--tier", "tracepoint", "--self-cost", "-q", "-d", "3");
	assert_int_equal(parse_serve_args(16, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_string_equal(a.listen, "[::1]:9100");
	assert_int_equal(a.pid, 42);
	assert_int_equal(a.by, FL_EXP_BY_CPU);
	assert_true(a.interval == 0.5 && a.duration == 3);
	assert_string_equal(a.textfile, "/tmp");
	assert_int_equal(a.tier_req, FL_TIER_TRACEPOINT);
	assert_true(a.self_cost && a.quiet);
	v = ARGV("serve", "--by", "llc", "-b", "kmod");
	assert_int_equal(parse_serve_args(5, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_int_equal(a.by, FL_EXP_BY_LLC);
	assert_int_equal(a.backend_req, FL_REC_B_KMOD);
	v = ARGV("serve", "-o", "/tmp/s.snap", "--output", "/tmp/t.snap");
	assert_int_equal(parse_serve_args(5, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_string_equal(a.output, "/tmp/t.snap");	/* the last one given */
	/* --handle-mm-fault, and --hmf, its first spelling */
	v = ARGV("serve", "--handle-mm-fault");
	assert_int_equal(parse_serve_args(2, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_true(a.time_hmf && !a.mmap_lock);
	v = ARGV("serve", "--hmf", "--mmap-lock");
	assert_int_equal(parse_serve_args(3, v, &a, err, sizeof(err)), FL_ARGS_RUN);
	assert_true(a.time_hmf && a.mmap_lock);
	v = ARGV("serve", "-h");
	assert_int_equal(parse_serve_args(2, v, &a, err, sizeof(err)), FL_ARGS_HELP);
}

static void test_refused(void **state)
{
	const struct { int argc; char **v; const char *why; } bad[] = {
		{ 3, ARGV("serve", "-a", "-p1"), "-a and -p exclude each other" },
		{ 3, ARGV("serve", "-p", "+5"), "-p: expected a process id, got '+5'" },
		{ 3, ARGV("serve", "-p", "0"), "-p: expected a process id, got '0'" },
		{ 4, ARGV("serve", "--per-cpu", "--by", "node"), "--per-cpu and --by exclude each other" },
		{ 3, ARGV("serve", "--by", "socket"), "--by: expected llc, node, cpu or total, got 'socket'" },
		{ 3, ARGV("serve", "-i", "0"), "-i: expected seconds >= 0.01, got '0'" },
		{ 3, ARGV("serve", "-o", ""), "-o: empty file name" },
		{ 3, ARGV("serve", "-i", "nan"), "-i: expected seconds >= 0.01, got 'nan'" },
		{ 3, ARGV("serve", "-b", "ebpf"), "-b: expected auto, bpf or kmod, got 'ebpf'" },
		{ 5, ARGV("serve", "-b", "kmod", "--tier", "fentry"), "--tier is for the bpf backend" },
		{ 4, ARGV("serve", "--hmf", "--tier", "tracepoint"),
		  "--hmf needs a handle_mm_fault hook: not with --tier tracepoint" },
		{ 4, ARGV("serve", "--handle-mm-fault", "--tier", "tracepoint"),
		  "--handle-mm-fault needs a handle_mm_fault hook: not with --tier tracepoint" },
		{ 4, ARGV("serve", "-b", "kmod", "--self-cost"),
		  "--self-cost times BPF programs: not with -b kmod" },
		{ 4, ARGV("serve", "--cgroup", "/sys/fs/cgroup/x", "-a"), "--cgroup excludes -a and -p" },
		{ 5, ARGV("serve", "--cgroup", "/x", "-b", "kmod"),
		  "--cgroup needs the bpf backend (the module filters one thread group)" },
		{ 3, ARGV("serve", "--cgroup", ""), "--cgroup: empty path" },
		{ 2, ARGV("serve", "extra"), "unexpected argument 'extra'" },
		{ 2, ARGV("serve", "--bogus"), "unknown option '--bogus'" },
		{ 2, ARGV("serve", "--listen"), "option '--listen' needs a value" },
	};
	struct fl_serve_args a;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_serve_args(bad[i].argc, bad[i].v, &a, err, sizeof(err)),
				 FL_ARGS_BAD);
		assert_string_equal(err, bad[i].why);
	}
}

static void test_listen(void **state)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	unsigned int len;
	char e[256];

	(void)state;
	assert_int_equal(fl_http_parse_listen("127.0.0.1:9477", &ss, &len, e, sizeof(e)), 0);
	assert_int_equal(in4->sin_family, AF_INET);
	assert_int_equal(ntohs(in4->sin_port), 9477);
	assert_int_equal(ntohl(in4->sin_addr.s_addr), 0x7f000001);
	assert_int_equal(len, sizeof(*in4));
	assert_int_equal(fl_http_parse_listen(":9100", &ss, &len, e, sizeof(e)), 0);
	assert_int_equal(ntohl(in4->sin_addr.s_addr), 0x7f000001);	/* loopback, not any */
	assert_int_equal(fl_http_parse_listen("0.0.0.0:80", &ss, &len, e, sizeof(e)), 0);
	assert_int_equal(in4->sin_addr.s_addr, 0);
	assert_int_equal(fl_http_parse_listen("[::1]:9477", &ss, &len, e, sizeof(e)), 0);
	assert_int_equal(in6->sin6_family, AF_INET6);
	assert_int_equal(ntohs(in6->sin6_port), 9477);
	assert_int_equal(len, sizeof(*in6));
	/* a name resolves (getaddrinfo): localhost is a loopback address */
	assert_int_equal(fl_http_parse_listen("localhost:9477", &ss, &len, e, sizeof(e)), 0);
	assert_true((ss.ss_family == AF_INET && ntohl(in4->sin_addr.s_addr) == 0x7f000001 &&
		     ntohs(in4->sin_port) == 9477) ||
		    (ss.ss_family == AF_INET6 && IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr) &&
		     ntohs(in6->sin6_port) == 9477));
	assert_int_equal(fl_http_parse_listen("127.0.0.1:0", &ss, &len, e, sizeof(e)), 0);
	assert_int_equal(ntohs(in4->sin_port), 0);	/* any free port */
	static const char *const badl[] = {
		"localhost", "127.0.0.1", "127.0.0.1:", "127.0.0.1:70000", "[::1]9477",
		"::1:9477", "1.2.3.4:12x", "", "[localhost]:80", "127.0.0.1:+80",
	};
	for (size_t i = 0; i < sizeof(badl) / sizeof(badl[0]); i++) {
		assert_int_equal(fl_http_parse_listen(badl[i], &ss, &len, e, sizeof(e)), -1);
		assert_non_null(strstr(e, "expected ADDR:PORT"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_listen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
