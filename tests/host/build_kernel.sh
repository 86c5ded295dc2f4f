#!/bin/sh
# tools/testbox/build-kernel without building a kernel: a tiny fake tree and
# a fake make (FL_KERNEL_MAKE) that plays kbuild's part.  Checks the config
# merge (base, faultline's fragment, a user's fragment: the last one wins),
# that an option olddefconfig drops or the tree lacks stops the build with
# its name, the error paths (no tree, not a kernel tree, no BTF support, a
# failed build), that a failure leaves no DIR, no temporary directory and a
# previous DIR untouched, and the layout of a good DIR.
#   tests/host/build_kernel.sh [OUTDIR]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host/build_kernel}
BK=$TOP/tools/testbox/build-kernel
FRAG=$TOP/tools/testbox/kernel.config
rm -rf "$OUT"
mkdir -p "$OUT"
W=$(cd "$OUT" && pwd)

# --- the fake tree: every option of the fragment is defined, but WERROR
# (an optional one it may lack); the base config contradicts some of them
T=$W/tree
mkdir -p "$T/arch/x86/include/asm" "$T/scripts/kconfig" "$T/lib" "$T/include/linux"
printf 'VERSION = 6\nPATCHLEVEL = 18\nSUBLEVEL = 0\nEXTRAVERSION =\n' >"$T/Makefile"
echo '#define FAKE 1' >"$T/include/linux/fake.h"
echo '#define FAKE_ASM 1' >"$T/arch/x86/include/asm/fake.h"
echo 'echo kconfig' >"$T/scripts/kconfig/merge_config.sh"
printf 'config DEBUG_INFO\n\tbool\nconfig DEBUG_INFO_BTF\n\tbool "BTF"\n' >"$T/lib/Kconfig.debug"
sed -n 's/^\(# \)\{0,1\}CONFIG_\([A-Za-z0-9_]*\)[= ].*/config \2\n\tbool/p' "$FRAG" |
	grep -v 'config WERROR$' >"$T/Kconfig"
printf 'config HZ_250\n\tbool\nconfig LOCALVERSION\n\tstring\nconfig SPF_STATS\n\tbool\n' >>"$T/Kconfig"

# the fake make: -C SRC O=OBJ [VAR=VAL] [-s] [-jN] TARGET...
cat >"$W/fake-make" <<'MAKE'
#!/bin/bash
set -e
src= obj= mods=
targets=()
while [ $# -gt 0 ]; do
	case $1 in
	-C) src=$2; shift 2 ;;
	O=*) obj=${1#O=}; shift ;;
	INSTALL_MOD_PATH=*) mods=${1#*=}; shift ;;
	-s|-j*) shift ;;
	*) targets+=("$1"); shift ;;
	esac
done
echo "${targets[*]}" >>"${FAKE_CALLS:-/dev/null}"
rel() { echo "6.18.0$(sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"$/\1/p' "$obj/.config")"; }
for t in "${targets[@]}"; do
	case $t in
	x86_64_defconfig)
		mkdir -p "$obj"
		printf '%s\n' '# CONFIG_BPF_SYSCALL is not set' 'CONFIG_HZ_250=y' \
			'CONFIG_LOCALVERSION=""' '# CONFIG_DEBUG_INFO_BTF is not set' \
			'CONFIG_MODULE_SIG=y' >"$obj/.config" ;;
	olddefconfig)	# a dependency the tree does not meet: the symbols in $src/drops
		[ -f "$src/drops" ] || continue
		grep -v -x -f <(sed 's/$/=.*/' "$src/drops") "$obj/.config" >"$obj/.config.new" || true
		mv "$obj/.config.new" "$obj/.config" ;;
	bzImage)
		[ ! -f "$src/fail-build" ] || { echo "fake: error: the compiler broke" >&2; exit 2; }
		mkdir -p "$obj/arch/x86/boot" "$obj/include/generated" "$obj/scripts/basic" \
			"$obj/arch/x86/include/generated/asm"
		echo bzImage >"$obj/arch/x86/boot/bzImage"
		echo map >"$obj/System.map"
		echo '#define UTS_RELEASE' >"$obj/include/generated/utsrelease.h"
		echo gen >"$obj/arch/x86/include/generated/asm/gen.h"
		echo fixdep >"$obj/scripts/basic/fixdep" ;;
	modules) echo "0x0 sym vmlinux EXPORT_SYMBOL" >"$obj/Module.symvers" ;;
	modules_install)
		d=$mods/lib/modules/$(rel)
		mkdir -p "$d/kernel/fs"
		echo ko >"$d/kernel/fs/fake.ko"
		echo kernel/fs/ext4/ext4.ko >"$d/modules.builtin"
		ln -s "$src" "$d/build"; ln -s "$src" "$d/source" ;;
	kernelrelease) rel ;;
	*) echo "fake make: no target $t" >&2; exit 2 ;;
	esac
done
MAKE
chmod +x "$W/fake-make"
export FL_KERNEL_MAKE="$W/fake-make"
D=$W/kernels/k
leftovers() { ls -d "$W/kernels/"*.tmp.* "$W/kernels/"*.old 2>/dev/null; }

# run WHAT ARGS...: build-kernel's exit status in $rc, stderr in $W/err
run() { "$BK" "$@" >"$W/out" 2>"$W/err"; rc=$?; }

# --- error paths: one line, exit 2, nothing made
mkdir -p "$W/kernels"
run "$W/no-such-tree" -o "$D" --root none
fl_check_eq "no tree: exit 2" "$rc" 2
fl_check_eq "... one line, naming it" "$(cat "$W/err")" "build-kernel: error: '$W/no-such-tree': no such directory"
fl_check_cmd "... no DIR" test ! -e "$D"
mkdir -p "$W/empty"
run "$W/empty" -o "$D" --root none
fl_check_eq "not a kernel tree: exit 2" "$rc" 2
fl_check_cmd "... says so" grep -q "is not a Linux source tree" "$W/err"
fl_check_eq "... in one line" "$(wc -l <"$W/err")" 1
cp -a "$T" "$W/nobtf"
printf 'config DEBUG_INFO\n\tbool\n' >"$W/nobtf/lib/Kconfig.debug"
run "$W/nobtf" -o "$D" --root none
fl_check_eq "a tree without BTF support: exit 2" "$rc" 2
fl_check_eq "... says why" "$(cat "$W/err")" \
	"build-kernel: error: 6.18.0 in '$W/nobtf' has no CONFIG_DEBUG_INFO_BTF: faultline needs kernel BTF (Linux 5.2 or later)"
fl_check_empty "... no DIR, no temporary directory" "$(ls "$W/kernels")"
run "$T" -o "$D" --root none --jobs 0
fl_check_eq "--jobs 0 is refused" "$rc" 2
run "$T" -o "$D" --root none -j2 --config-only
fl_check_eq "-jN as make takes it" "$rc" 0

# --- the merge: base < faultline's fragment < the user's fragment
printf '%s\n' '# CONFIG_NUMA is not set' 'CONFIG_SPF_STATS=y' >"$W/user.config"
run "$T" -o "$D" --root none -l -t1 -c "$W/user.config" --config-only
fl_check_eq "--config-only: exit 0" "$rc" 0
cp "$W/out" "$W/merged.config"
# every line of faultline's fragment, the user's overrides applied,
# WERROR (not in this tree) left out
grep -E '^(# )?CONFIG_' "$FRAG" | grep -v -e 'CONFIG_NUMA=' -e 'CONFIG_WERROR ' |
	sed 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/' | sort >"$W/want"
grep '^CONFIG_' "$W/merged.config" | sort >"$W/got-set"
missing=$(while read -r l; do
	case $l in
	*=n) grep -q "^${l%=n}=" "$W/got-set" && echo "$l" ;;
	*) grep -qxF "$l" "$W/got-set" || echo "$l" ;;
	esac
done <"$W/want")
fl_check_empty "each option of kernel.config is in the merged .config" "$missing"
fl_check_cmd "... the base's '# CONFIG_BPF_SYSCALL is not set' overridden" grep -qx 'CONFIG_BPF_SYSCALL=y' "$W/merged.config"
fl_check_cmd "... the base's CONFIG_MODULE_SIG=y overridden" sh -c "! grep -q '^CONFIG_MODULE_SIG=' '$W/merged.config'"
fl_check_cmd "... the base's own options kept" grep -qx 'CONFIG_HZ_250=y' "$W/merged.config"
fl_check_cmd "... the user's fragment wins over faultline's (NUMA)" grep -qx '# CONFIG_NUMA is not set' "$W/merged.config"
fl_check_cmd "... and adds its own" grep -qx 'CONFIG_SPF_STATS=y' "$W/merged.config"
fl_check_cmd "... -l sets CONFIG_LOCALVERSION" grep -qx 'CONFIG_LOCALVERSION="-t1"' "$W/merged.config"
fl_check_empty "... each symbol once" \
	"$(grep -oE '^(# )?CONFIG_[A-Za-z0-9_]+' "$W/merged.config" | sed 's/^# //' | sort | uniq -d)"
fl_check_empty "... nothing left beside DIR" "$(ls "$W/kernels")"

# an option olddefconfig drops, and one the tree lacks, stop the build
echo CONFIG_DEBUG_INFO_BTF >"$T/drops"
run "$T" -o "$D" --root none
fl_check_eq "an option olddefconfig dropped: exit 2" "$rc" 2
fl_check_cmd "... names it and what became of it" grep -q \
	"build-kernel: error: CONFIG_DEBUG_INFO_BTF=y ($FRAG): olddefconfig made it n" "$W/err"
fl_check_cmd "... nothing was built" grep -q "nothing was built" "$W/err"
fl_check_empty "... no DIR, no temporary directory" "$(ls "$W/kernels")"
rm "$T/drops"
echo CONFIG_NO_SUCH_OPTION=y >"$W/bad.config"
run "$T" -o "$D" --root none -c "$W/bad.config"
fl_check_eq "an option the tree does not define: exit 2" "$rc" 2
fl_check_cmd "... names it" grep -q "CONFIG_NO_SUCH_OPTION ($W/bad.config): this tree has no such option" "$W/err"
run "$T" -o "$D" --root none -c "$W/no-such.config"
fl_check_eq "a --config fragment that is not there: exit 2" "$rc" 2

# --- a good build, then a failed one over it
run "$T" -o "$D" --root none -l -t1
fl_check_eq "a good build: exit 0" "$rc" 0
fl_check_eq "... prints DIR" "$(cat "$W/out")" "$D"
fl_check_eq "... release" "$(cat "$D/release" 2>/dev/null)" "6.18.0-t1"
for f in vmlinuz config System.map modules/modules.builtin modules/kernel/fs/fake.ko \
	 build/Makefile build/.config build/Module.symvers build/include/linux/fake.h \
	 build/include/generated/utsrelease.h build/arch/x86/include/asm/fake.h \
	 build/arch/x86/include/generated/asm/gen.h build/scripts/basic/fixdep \
	 build/scripts/kconfig/merge_config.sh; do
	fl_check_cmd "... DIR/$f" test -f "$D/$f"
done
fl_check_cmd "... modules/ without the build and source links" sh -c "test ! -e '$D/modules/build' && test ! -L '$D/modules/source'"
fl_check_cmd "... no root file (--root none)" test ! -e "$D/root"
fl_check_cmd "... tools/testbox/run takes it (vmlinuz + release)" sh -c "test -f '$D/vmlinuz' && test -f '$D/release'"
fl_check_empty "... nothing left beside DIR" "$(leftovers)"
fl_check_cmd "... DIR/source names the tree" grep -qx "src $T" "$D/source"
export FAKE_CALLS=$W/make-calls
: >"$FAKE_CALLS"
run "$T" -o "$D" --root none -l -t1 --reuse
fl_check_eq "--reuse, same inputs: exit 0" "$rc" 0
fl_check_eq "... prints DIR" "$(cat "$W/out")" "$D"
fl_check_empty "... and runs no make" "$(cat "$FAKE_CALLS")"
run "$T" -o "$D" --root none -l -t1 -c "$W/user.config" --reuse
fl_check_eq "--reuse, another fragment: exit 0" "$rc" 0
fl_check_cmd "... builds again" grep -q bzImage "$FAKE_CALLS"
fl_check_cmd "... DIR is the new build (NUMA off)" grep -qx '# CONFIG_NUMA is not set' "$D/config"
: >"$FAKE_CALLS"
touch -d '2001-01-01' "$T/include/linux/fake.h"
run "$T" -o "$D" --root none -l -t1 -c "$W/user.config" --reuse
fl_check_cmd "--reuse, a file of the tree (not a checkout) changed: builds again" grep -q bzImage "$FAKE_CALLS"
unset FAKE_CALLS
echo keep >"$D/marker"
touch "$T/fail-build"
run "$T" -o "$D" --root none -l -t1
fl_check_eq "a failed build: exit 2" "$rc" 2
fl_check_cmd "... shows the build's last lines" grep -q "fake: error: the compiler broke" "$W/err"
fl_check_cmd "... says DIR was left as it was" grep -q "the kernel build failed after .* s (the lines above); $D left as it was" "$W/err"
fl_check_eq "... the previous DIR untouched" "$(cat "$D/marker" 2>/dev/null)" keep
fl_check_empty "... no temporary directory" "$(leftovers)"
rm "$T/fail-build"
run "$T" -o "$D" --root none -l -t1
fl_check_eq "a rebuild over DIR: exit 0" "$rc" 0
fl_check_cmd "... DIR is the new build (no marker)" test ! -e "$D/marker"
fl_check_empty "... no DIR.old left" "$(leftovers)"

# tools/build-module DIR refuses a build tree that is a wrapper for another
# (kbuild would rewrite that tree, reached by another path in a root)
mkdir -p "$W/wrap/build"
echo 6.18.0-w >"$W/wrap/release"
printf 'KBUILD_OUTPUT=/usr/src/elsewhere\ninclude /usr/src/elsewhere-common/Makefile\n' >"$W/wrap/build/Makefile"
cp "$W/wrap/build/Makefile" "$W/wrap-before"
"$TOP/tools/build-module" "$W/wrap" >"$W/out" 2>"$W/err"
fl_check_eq "build-module on a wrapper tree: exit 1" "$?" 1
fl_check_cmd "... says why" grep -q "build/Makefile is not a kernel's top Makefile (a wrapper for another tree?)" "$W/err"
fl_check_cmd "... and leaves it as it was" cmp -s "$W/wrap/build/Makefile" "$W/wrap-before"
fl_done
