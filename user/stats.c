// SPDX-License-Identifier: GPL-2.0
/* Summary statistics, the seed report's % arithmetic and number format, Welch's t-test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void hmean(const double *v, unsigned int n, struct fl_stats *st)
{
	double inv = 0, d = 0;

	st->hmean = st->sd_hmean = NAN;
	for (unsigned int i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return;
		inv += 1 / v[i];
	}
	st->hmean = n / inv;
	if (n < 2)
		return;
	for (unsigned int i = 0; i < n; i++)
		d += (1 / v[i] - 1 / st->hmean) * (1 / v[i] - 1 / st->hmean);
	st->sd_hmean = sqrt(d * pow(st->hmean, 4) / n);
}

int fl_stats_compute(const double *v, unsigned int n, struct fl_stats *st)
{
	double sum = 0, ss = 0, comp = 0, *s;
	unsigned int i;

	memset(st, 0, sizeof(*st));
	if (!n)
		return -1;
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return -1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	/* naive sum in input order, like the seed's framework would */
	for (i = 0; i < n; i++)
		sum += v[i];
	st->n = n;
	st->min = s[0];
	st->max = s[n - 1];
	st->mean = sum / n;
	st->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	hmean(v, n, st);
	if (n < 2) {
		st->stddev = st->sd_sample = NAN;
		return 0;
	}
	/* corrected two-pass algorithm (Chan, Golub, LeVeque) */
	for (i = 0; i < n; i++) {
		double d = v[i] - st->mean;

		ss += d * d;
		comp += d;
	}
	ss -= comp * comp / n;
	st->stddev = sqrt(ss / n);
	st->sd_sample = sqrt(ss / (n - 1));
	return 0;
}

double fl_pct_change(double a, double b)
{
	if (a == 0 || !isfinite(a) || !isfinite(b))
		return NAN;
	return (b - a) / a * 100;
}

void fl_fmt_pct(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.2f%%", pct);
}

void fl_fmt_double(char *buf, size_t len, double v)
{
	char e[40], digits[24], *p, *out;
	int prec, exp, nd = 0, neg = 0;
	size_t o = 0;

	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, len, v > 0 ? "+Inf" : "-Inf");
		return;
	}
	if (v == 0) {
		snprintf(buf, len, signbit(v) ? "-0" : "0");
		return;
	}
	/* shortest %.*e that reads back exactly */
	for (prec = 0; prec < 17; prec++) {
		snprintf(e, sizeof(e), "%.*e", prec, v);
		if (strtod(e, NULL) == v)
			break;
	}
	p = e;
	if (*p == '-') {
		neg = 1;
		p++;
	}
	for (; *p && *p != 'e'; p++)
		if (*p != '.')
			digits[nd++] = *p;
	digits[nd] = '\0';
	exp = atoi(p + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		digits[--nd] = '\0';

	out = malloc(nd + 40);
	if (!out) {
		snprintf(buf, len, "%.17g", v);
		return;
	}
	if (neg)
		out[o++] = '-';
	if (exp < -4 || exp >= 6) {
		out[o++] = digits[0];
		if (nd > 1) {
			out[o++] = '.';
			memcpy(out + o, digits + 1, nd - 1);
			o += nd - 1;
		}
		o += sprintf(out + o, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
	} else if (exp < 0) {
		out[o++] = '0';
		out[o++] = '.';
		for (int z = 0; z < -exp - 1; z++)
			out[o++] = '0';
		memcpy(out + o, digits, nd);
		o += nd;
	} else {
		for (int i = 0; i <= exp; i++)
			out[o++] = i < nd ? digits[i] : '0';
		if (nd > exp + 1) {
			out[o++] = '.';
			memcpy(out + o, digits + exp + 1, nd - exp - 1);
			o += nd - exp - 1;
		}
	}
	out[o] = '\0';
	snprintf(buf, len, "%s", out);
	free(out);
}

double fl_mmtests_ratio(const struct fl_stats *a, const struct fl_stats *b, int higher_is_better)
{
	double ma = higher_is_better ? a->hmean : a->mean, mb = higher_is_better ? b->hmean : b->mean;
	double sa = higher_is_better ? a->sd_hmean : a->sd_sample;
	double sb = higher_is_better ? b->sd_hmean : b->sd_sample;
	double ci;

	if (a->n < 2 || b->n < 2 || !isfinite(ma) || !isfinite(mb) || !isfinite(sa) ||
	    !isfinite(sb))
		return NAN;
	/* symmetric intervals: the facing half-widths are the two z x stddev */
	ci = FL_MMTESTS_Z * sa + FL_MMTESTS_Z * sb;
	return ci == 0 ? mb - ma : (mb - ma) / ci;
}

void fl_fmt_sig(char *buf, size_t len, double v, int digits)
{
	char e[48];
	int exp, dec;

	if (!isfinite(v)) {
		snprintf(buf, len, isnan(v) ? "-" : v > 0 ? "+Inf" : "-Inf");
		return;
	}
	if (digits < 1)
		digits = 1;
	if (digits > 17)
		digits = 17;
	/* the rounding %e does, then the decimals that leaves */
	snprintf(e, sizeof(e), "%.*e", digits - 1, v);
	exp = atoi(strchr(e, 'e') + 1);
	if (exp >= 15) {
		snprintf(buf, len, "%s", e);
		return;
	}
	dec = digits - 1 - exp;
	if (dec < 0)
		dec = 0;
	snprintf(buf, len, "%.*f", dec, strtod(e, NULL));
	if (dec > 0) {
		char *p = buf + strlen(buf);

		while (p[-1] == '0')
			*--p = '\0';
		if (p[-1] == '.')
			p[-1] = '\0';
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, len, "0");
}

/* Continued fraction for the regularized incomplete beta (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d, h;
	int m;

	d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 10000; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2)), del;

		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* I_x(a, b) */
static double ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double fl_student_t_p2(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0;
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

double fl_welch_p(const struct fl_stats *a, const struct fl_stats *b, double *t, double *df)
{
	double va, vb, se2, tt, d;

	if (a->n < 2 || b->n < 2)
		return NAN;
	va = a->sd_sample * a->sd_sample / a->n;
	vb = b->sd_sample * b->sd_sample / b->n;
	se2 = va + vb;
	if (se2 == 0) {
		if (a->mean == b->mean)
			return NAN;
		/* no spread at all and different means: as significant as it gets */
		if (t)
			*t = b->mean > a->mean ? INFINITY : -INFINITY;
		if (df)
			*df = a->n + b->n - 2;
		return 0;
	}
	tt = (b->mean - a->mean) / sqrt(se2);
	d = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	if (t)
		*t = tt;
	if (df)
		*df = d;
	return fl_student_t_p2(tt, d);
}
