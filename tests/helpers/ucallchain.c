// SPDX-License-Identifier: GPL-2.0
/*
 * ucallchain LOOPS: kernel-mode faults on a user address taken in interrupt
 * context (tests/integration/irq_faults.sh).  perf samples this process with
 * its user call chain (PERF_SAMPLE_CALLCHAIN, user mode only): at each
 * sample the kernel walks the frame pointers from regs->bp with
 * copy_from_user_nmi-style reads (arch/x86/events/core.c
 * perf_callchain_user: pagefault_disable + __get_user) in NMI (cycles) or
 * hard IRQ (cpu-clock, where there is no PMU, as under QEMU TCG).  The loop
 * below keeps %rbp pointing into an untouched page, so every sample takes a
 * page fault that the handler refuses (faulthandler_disabled) and fixes up:
 * the page stays absent.  Prints the event used, the samples taken (ring
 * records + lost) and the pages of the target resident afterwards (0).
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "anon.h"
#include "num.h"

#define RING_PAGES 256

static int open_event(__u32 type, __u64 config, __u64 period)
{
	struct perf_event_attr pa;

	memset(&pa, 0, sizeof(pa));
	pa.size = sizeof(pa);
	pa.type = type;
	pa.config = config;
	pa.sample_period = period;
	pa.sample_type = PERF_SAMPLE_CALLCHAIN;
	pa.exclude_kernel = 1;
	pa.exclude_hv = 1;
	pa.disabled = 1;
	return syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0);
}

static void spin(char *fp, long loops)
{
#if defined(__x86_64__)
	__asm__ volatile("push %%rbp\n\t"
			 "mov %%rsi, %%rbp\n\t"
			 "1: dec %%rcx\n\t"
			 "jnz 1b\n\t"
			 "pop %%rbp"
			 : "+c"(loops) : "S"(fp) : "memory", "cc");
#else
#error "x86-64 only (frame-pointer call chains)"
#endif
}

int main(int argc, char **argv)
{
	long ps = sysconf(_SC_PAGESIZE), loops, samples = 0, lost = 0;
	struct perf_event_mmap_page *mp;
	const char *ev = "cycles";
	unsigned char vec;
	__u64 head, off;
	char *t, *ring;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: ucallchain LOOPS\n");
		return 2;
	}
	loops = helper_num("ucallchain", argv[1], 1, 1L << 40);
	t = helper_anon("ucallchain", ps);
	fd = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1000000);
	if (fd < 0) {
		ev = "cpu-clock";
		fd = open_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 1000000);
	}
	if (fd < 0) {
		perror("ucallchain: perf_event_open");
		return 1;
	}
	ring = mmap(NULL, (RING_PAGES + 1) * ps, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		perror("ucallchain: mmap ring");
		return 1;
	}
	mp = (void *)ring;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(t + 64, loops);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	if (head > (__u64)RING_PAGES * ps) {
		fprintf(stderr, "ucallchain: ring wrapped\n");
		return 1;
	}
	for (off = 0; off < head;) {
		struct perf_event_header *h = (void *)(ring + ps + off);

		if (h->type == PERF_RECORD_SAMPLE)
			samples++;
		else if (h->type == PERF_RECORD_LOST)
			lost += ((__u64 *)(h + 1))[1];
		if (!h->size)
			break;
		off += h->size;
	}
	if (mincore(t, ps, &vec))
		vec = 0xff;
	printf("event %s\nsamples %ld\nlost %ld\nresident %d\n", ev, samples + lost, lost, vec & 1);
	return 0;
}
