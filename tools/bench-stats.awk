# Paired benchmark statistics, used by tools/bench on the host and in the
# test box.  Input lines: "base_cpu base_wsec traced_cpu traced_wsec" (pft
# columns flt/cpu/s and fault/wsec of one untraced and one traced run).
# Prints medians, the mean traced/base ratio of fault/wsec with a t-based 95%
# confidence interval, and the added cost per fault from the flt/cpu/s medians.
function med(a, n,   i, j, t) {
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# Newton's square root: busybox awk in the test box has no math library.
function root(x,   r, i) { if (x <= 0) return 0; r = x > 1 ? x : 1; for (i = 0; i < 60; i++) r = (r + x / r) / 2; return r }
BEGIN { split("12.71 4.30 3.18 2.78 2.57 2.45 2.36 2.31 2.26 2.23 2.20 2.18 2.16 2.14 2.13 2.12 2.11 2.10 2.09 2.09", T, " ") }
NF == 4 { n++; bc[n] = $1; bw[n] = $2; tc[n] = $3; tw[n] = $4; r[n] = $4 / $2; s += r[n]; ss += r[n] * r[n] }
END {
	if (n < 2) { print "  too few runs (" n ")"; exit }
	m = s / n; v = (ss - n * m * m) / (n - 1); sd = root(v)
	t = (n - 1 <= 20) ? T[n - 1] : 1.96
	mbc = med(bc, n); mtc = med(tc, n); mbw = med(bw, n); mtw = med(tw, n)
	printf "  base    flt/cpu/s median %12.1f   fault/wsec median %12.1f\n", mbc, mbw
	printf "  traced  flt/cpu/s median %12.1f   fault/wsec median %12.1f\n", mtc, mtw
	printf "  ratio traced/base (fault/wsec, %d pairs): %.4f  95%% CI [%.4f, %.4f]  throughput change %+.2f%%\n", n, m, m - t * sd / root(n), m + t * sd / root(n), (m - 1) * 100
	printf "  added cost per fault (flt/cpu/s medians): %.0f ns\n", (1 / mtc - 1 / mbc) * 1e9
}
