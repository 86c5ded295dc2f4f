// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz one will-it-scale output line (fl_wis_parse_line).  An accepted
 * sample must have min <= max <= total and read back identically when
 * printed again as will-it-scale prints it ("min:%llu max:%llu total:%llu",
 * the line without its trailing blanks); the markers must be exactly
 * "warmup" / "measurement"; a refused line must say why.
 */
#include "fuzzutil.h"
#include "wislog.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char line[256], back[256], err[200] = "";
	struct fl_wis_sample s;
	size_t n;
	int r;

	if (size >= sizeof(line) || memchr(data, '\0', size) || memchr(data, '\n', size))
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	r = fl_wis_parse_line(line, &s, err, sizeof(err));
	n = size;
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		n--;
	line[n] = '\0';
	switch (r) {
	case FL_WIS_SAMPLE:
		FZ_ASSERT(s.min <= s.max && s.max <= s.total);
		snprintf(back, sizeof(back), "min:%llu max:%llu total:%llu", s.min, s.max, s.total);
		FZ_ASSERT(!strcmp(back, line));
		break;
	case FL_WIS_WARMUP:
		FZ_ASSERT(!strcmp(line, "warmup"));
		break;
	case FL_WIS_MEASURE:
		FZ_ASSERT(!strcmp(line, "measurement"));
		break;
	case FL_WIS_NONE:
		FZ_ASSERT(!n || !strncmp(line, "testcase:", 9) || !strncmp(line, "average:", 8) ||
			  strstr(line, " -> "));
		break;
	default:
		FZ_ASSERT(r == -1 && err[0]);
	}
	return 0;
}
