# shellcheck shell=bash
# in_root ROOT [HOSTDIR:PATH]... -- CMD...: run CMD in a chroot of the build
# root ROOT (tools/build-root), in a private mount namespace with each
# HOSTDIR bound at PATH inside the root and /proc mounted (objtool reads
# /proc/self); the mounts live and die with the namespace.  Needs root.
# Sourced by tools/build-module and tools/testbox/build-kernel.
in_root() {
	local root=$1 b
	local binds=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do binds+=("$1"); shift; done
	shift
	for b in "${binds[@]}"; do mkdir -p "$root${b#*:}"; done
	unshare -m sh -euc 'mount --make-rprivate / 2>/dev/null || true
		r=$1; shift
		while [ "$1" != -- ]; do mount --bind "${1%%:*}" "$r${1#*:}"; shift; done
		shift
		mount -t proc proc "$r/proc"
		exec chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LC_ALL=C.UTF-8 "$@"' \
		sh "$root" "${binds[@]}" -- "$@"
}
