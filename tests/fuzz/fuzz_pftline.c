// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz one pft output line (fl_pft_parse_line).  An accepted line must hold
 * a plausible sample (threads > 0, times finite and >= 0, rates >= 0 or +inf)
 * and must read back identically when printed again in pft's column layout
 * with every digit (%.17g); a refused line must say why.
 */
#include <math.h>

#include "fuzzutil.h"
#include "pftlog.h"

static void num(char *b, size_t len, double v, const char *suffix)
{
	if (isinf(v))
		snprintf(b, len, "inf%s", suffix);
	else
		snprintf(b, len, "%.17g%s", v, suffix);
}

/* [0-9]*(.[0-9]*)?([eE][+-]?[0-9]+)? with a digit before the exponent */
static int plain_decimal(const char *t, int suffix, int inf)
{
	size_t n = strlen(t), digits = 0;

	if (inf && (!strcmp(t, "inf") || !strcmp(t, "INF")))
		return 1;
	if (suffix && n && t[n - 1] == 's')	/* optional, as parse_num() documents */
		n--;
	for (; n && *t >= '0' && *t <= '9'; t++, n--)
		digits++;
	if (n && *t == '.')
		for (t++, n--; n && *t >= '0' && *t <= '9'; t++, n--)
			digits++;
	if (!digits)
		return 0;
	if (n && (*t == 'e' || *t == 'E')) {
		t++, n--;
		if (n && (*t == '+' || *t == '-'))
			t++, n--;
		if (!n)
			return 0;
		for (; n && *t >= '0' && *t <= '9'; t++, n--)
			;
	}
	return n == 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *line = fz_str(data, size), err[256] = "", out[512], f[6][64];
	struct fl_pft_sample s, t;
	int r;

	r = fl_pft_parse_line(line, &s, err, sizeof(err));
	FZ_ASSERT(r >= -1 && r <= 1);
	if (r < 0)
		FZ_ASSERT(err[0] != '\0');
	if (r == 1) {
		FZ_ASSERT(s.threads > 0);
		FZ_ASSERT(isfinite(s.gb) && s.gb >= 0);
		FZ_ASSERT(isfinite(s.user_s) && s.user_s >= 0);
		FZ_ASSERT(isfinite(s.sys_s) && s.sys_s >= 0);
		FZ_ASSERT(isfinite(s.wall_s) && s.wall_s >= 0);
		FZ_ASSERT(!isnan(s.flt_cpu) && s.flt_cpu >= 0);
		FZ_ASSERT(!isnan(s.flt_wsec) && s.flt_wsec >= 0);
		num(f[0], sizeof(f[0]), s.gb, "");
		num(f[1], sizeof(f[1]), s.user_s, "s");
		num(f[2], sizeof(f[2]), s.sys_s, "s");
		num(f[3], sizeof(f[3]), s.wall_s, "s");
		num(f[4], sizeof(f[4]), s.flt_cpu, "");
		num(f[5], sizeof(f[5]), s.flt_wsec, "");
		snprintf(out, sizeof(out), "%s %4u %3u %s %s %s %s %s\n", f[0], s.threads,
			 s.clines, f[1], f[2], f[3], f[4], f[5]);
		FZ_ASSERT(fl_pft_parse_line(out, &t, err, sizeof(err)) == 1);
		FZ_ASSERT(!memcmp(&s, &t, sizeof(s)));
		{
			char *save = NULL, *tok;
			int col = 0;

			for (tok = strtok_r(line, " \t\r\n", &save); tok;
			     tok = strtok_r(NULL, " \t\r\n", &save), col++)
				FZ_ASSERT(col == 1 || col == 2 ||
					  plain_decimal(tok, col >= 3 && col <= 5, col >= 6));
			FZ_ASSERT(col == 8);
		}
	}
	free(line);
	return 0;
}
