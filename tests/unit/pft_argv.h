/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pft's option parser driven from a space-separated command line, for
 * test_pft_options.c and test_pft_shapes.c (include after cmocka.h and
 * tools/pft/pft.h).
 */
#ifndef FL_TEST_PFT_ARGV_H
#define FL_TEST_PFT_ARGV_H

#define PS 4096
#define LS 64
#define MAXARGS 16

/* Parses LINE as pft's arguments (argv[0] = "pft"). */
static int parse(const char *line, struct pft_opts *o, char *err, size_t errlen)
{
	static char buf[512];
	char *argv[MAXARGS + 1];
	int argc = 0;

	strncpy(buf, line, sizeof(buf) - 1);
	argv[argc++] = "pft";
	for (char *t = strtok(buf, " "); t && argc < MAXARGS; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	return pft_parse_args(argc, argv, o, PS, LS, err, errlen);
}

struct pft_bad { const char *args, *msg; };

/* Every line of BAD is refused with its one-line message. */
static void check_bad(const struct pft_bad *bad, size_t n)
{
	struct pft_opts o;
	char err[256];

	for (size_t i = 0; i < n; i++) {
		int rc = parse(bad[i].args, &o, err, sizeof(err));

		if (rc != -1 || !strstr(err, bad[i].msg) || strchr(err, '\n'))
			fail_msg("'pft %s': expected failure with '%s', got rc %d err '%s'",
				 bad[i].args, bad[i].msg, rc, err);
	}
}

#endif
