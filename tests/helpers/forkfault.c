// SPDX-License-Identifier: GPL-2.0
/*
 * forkfault LIVE MS GAP_US: fork without pause, keeping LIVE children alive;
 * each child faults for MS milliseconds and exits: it writes the pages of a
 * 64-page anonymous buffer one by one, GAP_US microseconds apart, dropping
 * the buffer (MADV_DONTNEED) after each pass.  Runs until killed (SIGTERM:
 * the children finish their MS and exit on their own).  Many children that
 * mostly sleep make many forks a second on few CPUs.
 *
 * tests/integration/kmod_races.sh uses it to stress the module's filter:
 * many forks of one long-lived process while `tgid` sets run, and children
 * that keep faulting long enough afterwards for a child wrongly put into the
 * new filter to show up in its counts.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "anon.h"
#include "num.h"

#define BUF_PAGES 64

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void child(long ms, long gap_us)
{
	struct timespec gap = { gap_us / 1000000, gap_us % 1000000 * 1000 };
	long ps = sysconf(_SC_PAGESIZE);
	double end = now_ms() + ms;
	char *p = helper_anon("forkfault", BUF_PAGES * ps);

	while (now_ms() < end) {
		for (long i = 0; i < BUF_PAGES; i++) {
			p[i * ps] = 1;
			if (gap_us)
				nanosleep(&gap, NULL);
		}
		madvise(p, BUF_PAGES * ps, MADV_DONTNEED);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	long live, ms, gap_us, n = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: forkfault LIVE MS GAP_US\n");
		return 2;
	}
	live = helper_num("forkfault", argv[1], 1, 4096);
	ms = helper_num("forkfault", argv[2], 1, 3600000);
	gap_us = helper_num("forkfault", argv[3], 0, 1000000);
	signal(SIGCHLD, SIG_DFL);
	for (;;) {
		while (n < live) {
			pid_t pid = fork();

			if (pid < 0) {
				perror("forkfault: fork");
				return 1;
			}
			if (pid == 0)
				child(ms, gap_us);
			n++;
		}
		if (wait(NULL) > 0)
			n--;
	}
}
