// SPDX-License-Identifier: GPL-2.0
/*
 * reqmod N: N times socket(AF_VSOCK) while no vsock family is registered:
 * each makes the kernel run modprobe_path as a usermode helper
 * (request_module("net-pf-40"), waited for).  The helper's exec copies its
 * arguments into the new mm with GUP (get_arg_page -> handle_mm_fault) from
 * a kernel thread (5.10: kernel_thread) or a user-mode thread without an mm
 * (6.x: user_mode_thread) -- neither is traced by faultline.  Prints how
 * many calls failed with EAFNOSUPPORT (the family stayed unregistered).
 * tests/integration/kthread_faults.sh sets modprobe_path to a marker script.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "num.h"

#define FL_AF_VSOCK 40	/* not in every libc's headers */

int main(int argc, char **argv)
{
	long n, i, nosupport = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: reqmod N\n");
		return 2;
	}
	n = helper_num("reqmod", argv[1], 1, 100000);
	for (i = 0; i < n; i++) {
		int fd = socket(FL_AF_VSOCK, SOCK_STREAM, 0);

		if (fd >= 0) {
			fprintf(stderr, "reqmod: socket(AF_VSOCK) worked: the family is registered\n");
			close(fd);
			return 1;
		}
		nosupport += errno == EAFNOSUPPORT;
	}
	printf("reqmod: %ld sockets, %ld EAFNOSUPPORT\n", n, nosupport);
	return 0;
}
