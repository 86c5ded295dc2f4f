#!/bin/sh
# The Debian packages (issue 28): `make deb` builds faultline_*.deb and
# faultline-dkms_*.deb (reused when nothing changed since the last make
# deb: tools/build-deb); both install with apt-get (dpkg, dependencies
# resolved); the installed /usr/bin/faultline runs --version, probe and a
# recording of /usr/bin/pft; faultline(8), pft-sweep, the systemd unit and
# the Prometheus rules are where they belong; DKMS adds the module's
# sources and builds faultline.ko against an installed headers package
# (the test box's 6.12, -k: this host's own kernel has no headers; the
# module is not loaded); dpkg -P removes both and leaves nothing of
# faultline in /usr/bin, /usr/src, /var/lib/dkms or /lib/modules.
# DKMS's own build at install time, for every kernel in /lib/modules, is
# held off (/etc/dkms/no-autoinstall, for the install only): one module
# build, the one asked for, keeps the test short.
# Needs root and a machine where faultline is not installed otherwise.
#   tests/host/deb.sh [OUTDIR]
# It builds in the working tree the test boxes copy from: run-all runs it
# before them, not beside them.
# serial: yes
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host/deb}
CACHE=${FAULTLINE_CACHE:-/var/cache/faultline}
rm -rf "$OUT"
mkdir -p "$OUT"
[ "$(id -u)" = 0 ] || fl_skip "needs root (dpkg -i)"
command -v dpkg >/dev/null || fl_skip "not a Debian machine (no dpkg)"
# the machine's dpkg is one: one run of this test at a time
exec 8>"${TMPDIR:-/tmp}/faultline-deb-test.lock"
flock 8

# nothing of a faultline installed otherwise is replaced or purged here;
# what a killed run of this test left (its mark) is
MARK=/var/lib/faultline-deb-test.installed
[ -f $MARK ] && { dpkg -P faultline faultline-dkms >/dev/null 2>&1; rm -f $MARK; }
for p in faultline faultline-dkms; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' &&
		fl_skip "$p is installed on this machine (not replaced by a test)"
done
for f in /usr/bin/faultline /usr/bin/pft /usr/bin/pft-sweep /var/lib/dkms/faultline; do
	[ -e "$f" ] && fl_skip "$f exists, not from a package (not replaced by a test)"
done

# the packages
if ! grep -q '^deb:' "$TOP/Makefile" || [ ! -f "$TOP/debian/control" ]; then
	fl_fail "make deb: no such target (no debian/ packaging in $TOP)"
	fl_done
fi
t0=$(date +%s)
make -s -C "$TOP" deb >"$OUT/make-deb.txt" 2>&1
rc=$?
echo "make deb: $(( $(date +%s) - t0 )) s"
fl_check_eq "make deb exit status" $rc 0
if [ $rc != 0 ]; then
	tail -20 "$OUT/make-deb.txt"
	fl_done
fi
DEB=$(grep '/faultline_[^/]*\.deb$' "$OUT/make-deb.txt")
DKMS_DEB=$(grep '/faultline-dkms_[^/]*_all\.deb$' "$OUT/make-deb.txt")
fl_check_cmd "make deb printed faultline_*.deb ($DEB)" test -f "$DEB"
fl_check_cmd "make deb printed faultline-dkms_*_all.deb ($DKMS_DEB)" test -f "$DKMS_DEB"
[ -f "$DEB" ] && [ -f "$DKMS_DEB" ] || fl_done
VER=$(dpkg-deb -f "$DKMS_DEB" Version)
fl_check_empty "make deb left nothing in the working tree (git status)" \
	"$(cd "$TOP" && git status --porcelain --ignored -- debian 2>/dev/null | grep '^!!')"

# install (and, whatever happens below, purge at exit)
NOAUTO=
cleanup() {
	[ -n "$NOAUTO" ] && rm -f /etc/dkms/no-autoinstall
	dpkg -P faultline faultline-dkms >/dev/null 2>&1 && rm -f $MARK
}
trap cleanup EXIT
trap 'exit 1' INT TERM
if [ ! -e /etc/dkms/no-autoinstall ]; then
	mkdir -p /etc/dkms && : >/etc/dkms/no-autoinstall && NOAUTO=1
fi
: >$MARK
t0=$(date +%s)
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	"$DEB" "$DKMS_DEB" >"$OUT/install.txt" 2>&1
rc=$?
echo "install: $(( $(date +%s) - t0 )) s"
[ -n "$NOAUTO" ] && rm -f /etc/dkms/no-autoinstall && NOAUTO=
fl_check_eq "apt-get install ./faultline_*.deb ./faultline-dkms_*.deb exit status" $rc 0
[ $rc = 0 ] || { tail -20 "$OUT/install.txt"; fl_done; }
for p in faultline faultline-dkms; do
	fl_check_eq "dpkg: $p $VER installed" \
		"$(dpkg-query -W -f='${Status} ${Version}' "$p" 2>/dev/null)" "install ok installed $VER"
done

# the collector and pft, from their installed paths
for f in /usr/bin/faultline /usr/bin/pft /usr/bin/pft-sweep; do
	fl_check_cmd "installed: $f (executable)" test -x "$f"
done
/usr/bin/faultline --version >"$OUT/version.txt" 2>&1
fl_check_eq "/usr/bin/faultline --version exit status" $? 0
fl_check_cmd "--version says faultline ($(head -1 "$OUT/version.txt"))" grep -q '^faultline ' "$OUT/version.txt"
/usr/bin/pft-sweep -h >"$OUT/pft-sweep-h.txt" 2>&1
fl_check_eq "/usr/bin/pft-sweep -h exit status" $? 0
if [ -r /sys/kernel/btf/vmlinux ]; then
	/usr/bin/faultline probe >"$OUT/probe.txt" 2>&1
	fl_check_eq "/usr/bin/faultline probe exit status" $? 0
	/usr/bin/faultline record -o "$OUT/x.snap" -- /usr/bin/pft -m 16m -t 1 >"$OUT/record.txt" 2>&1
	fl_check_eq "/usr/bin/faultline record -- /usr/bin/pft exit status" $? 0
	fl_check_cmd "the recording is written" test -s "$OUT/x.snap"
	/usr/bin/faultline report "$OUT/x.snap" >"$OUT/report.txt" 2>&1
	fl_check_eq "/usr/bin/faultline report of it exit status" $? 0
else
	fl_skip_check "faultline probe, record" "no kernel BTF on this host"
fi

# the man page, the unit, the rules
fl_check_eq "man -w faultline" "$(man -w faultline 2>/dev/null)" /usr/share/man/man8/faultline.8.gz
fl_check_cmd "faultline(8) is roff with its title" sh -c 'zcat /usr/share/man/man8/faultline.8.gz | grep -q "^\.TH \"\{0,1\}FAULTLINE"'
U=/lib/systemd/system/faultline-serve.service
fl_check_cmd "installed: the systemd unit" test -s $U
fl_check_cmd "the unit runs /usr/bin/faultline serve" grep -q '^ExecStart=/usr/bin/faultline serve' $U
fl_check_empty "the unit is not enabled" "$(find /etc/systemd/system -name faultline-serve.service 2>/dev/null)"
fl_check_cmd "installed: the Prometheus rules" test -s /usr/share/faultline/prometheus/faultline-rules.yml

# DKMS: the sources, then one build against the test box's 6.12 headers
S=/usr/src/faultline-$VER
for f in dkms.conf Kbuild module/Kbuild module/main.c module/conftest.sh include/faultline/abi.h; do
	fl_check_cmd "installed: $S/$f" test -s "$S/$f"
done
fl_check_cmd "dkms.conf's version is the package's" grep -qx "PACKAGE_VERSION=\"$VER\"" "$S/dkms.conf"
KREL=$(cat "$CACHE/kernels/6.12/release" 2>/dev/null)
[ -n "$KREL" ] && [ -e "/lib/modules/$KREL/build" ] ||
	KREL=$(ls -d /lib/modules/*/build 2>/dev/null | sed 's|^/lib/modules/||; s|/build$||' | sort -V | tail -1)
if [ -z "$KREL" ]; then
	fl_skip_check "dkms build" "no kernel headers package installed (/lib/modules/*/build)"
else
	t0=$(date +%s)
	dkms add -m faultline -v "$VER" >"$OUT/dkms.txt" 2>&1
	fl_check_eq "dkms add -m faultline -v $VER exit status" $? 0
	dkms build -m faultline -v "$VER" -k "$KREL" >>"$OUT/dkms.txt" 2>&1
	rc=$?
	echo "dkms add + build: $(( $(date +%s) - t0 )) s"
	fl_check_eq "dkms build -m faultline -v $VER -k $KREL exit status" $rc 0
	[ $rc = 0 ] || { tail -20 "$OUT/dkms.txt"; cat /var/lib/dkms/faultline/"$VER"/build/make.log 2>/dev/null | tail -20; }
	KO=$(ls /var/lib/dkms/faultline/"$VER"/"$KREL"/*/module/faultline.ko* 2>/dev/null | head -1)
	fl_check_cmd "dkms built faultline.ko for $KREL ($KO)" test -s "$KO"
	fl_check_eq "its vermagic is $KREL" "$(modinfo -F vermagic "$KO" 2>/dev/null | cut -d' ' -f1)" "$KREL"
	fl_check_cmd "dkms status: built for $KREL" sh -c "dkms status -m faultline -v '$VER' -k '$KREL' 2>/dev/null | grep -q ': built'"
fi

# purge: nothing of faultline left
t0=$(date +%s)
dpkg -P faultline faultline-dkms >"$OUT/purge.txt" 2>&1
rc=$?
echo "purge: $(( $(date +%s) - t0 )) s"
[ $rc = 0 ] && rm -f $MARK
fl_check_eq "dpkg -P faultline faultline-dkms exit status" $rc 0
[ $rc = 0 ] || tail -20 "$OUT/purge.txt"
for p in faultline faultline-dkms; do
	fl_check_empty "dpkg: $p gone" "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -v '^unknown ok not-installed$')"
done
fl_check_empty "nothing left in /usr/bin, /usr/src, /var/lib/dkms, /lib/modules, /lib/systemd" \
	"$(ls -d /usr/bin/faultline /usr/bin/pft /usr/bin/pft-sweep /usr/src/faultline-* /var/lib/dkms/faultline \
		/lib/modules/*/updates/dkms/faultline.ko* /lib/systemd/system/faultline-serve.service \
		/usr/share/faultline /usr/share/man/man8/faultline.8.gz 2>/dev/null)"
fl_done
