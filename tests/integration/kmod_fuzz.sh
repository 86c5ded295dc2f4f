# faultline.ko under fuzzed input: random and adversarial values for every
# module parameter at insmod, and for every control command (plus writes to
# the read-only files) while pft faults, each checked against a model of the
# documented grammar: a refused insmod leaves nothing loaded, an accepted one
# reads back the value asked for; a control write gets exactly the errno the
# model says.  Afterwards the module still counts a pft run exactly (faults =
# pages +-1%); the runner fails the run on any oops/WARNING in dmesg.
# rcu_expedited: a refused insmod frees the module after two synchronize_rcu()
# (load_module's error path), ~0.17 s of waiting under TCG; expedited grace
# periods take that to ~0.02 s (2026-12-05, 6.12: 30 refusals 5.7 -> 0.7 s)
# and nothing here depends on how long a grace period takes.
# kernels: 6.12 6.1 5.10 7.3
# boot: shared
# smp: 2
# append: rcupdate.rcu_expedited=1
# timeout: 420
# args: 32 30
. /fl/lib.sh
. /fl/kmod.inc
PARAM_N=${1:-32}	# random insmod values a parameter, after the edge cases
CTL_S=${2:-30}		# seconds of control-file fuzzing
# The edge cases run in full on every kernel (the kernel's own parameter
# and kstrto* parsing differs by version); the random values exercise the
# module's parsers and its model, the same source on all four: all of them
# on 6.12, half on each other kernel.  A count, not seconds: a refused
# insmod costs 0.02-0.2 s by kernel and host (26 values a parameter were
# 5 s on 6.12 before rcu_expedited); 2026-12-05, 6.12: 481 control writes
# in the 30 s.
case $FL_SERIES in 6.12) ;; *) PARAM_N=$((PARAM_N / 2)) CTL_S=$((CTL_S / 2)) ;; esac
SIZE=64m
PAGES=$((64 * 256))
[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
[ -x /fl/pft ] || fl_skip "pft not built"

F=/tmp/fz
mkdir -p $F
P=/sys/module/faultline/parameters
NFAIL_SHOWN=0
EINVAL="Invalid argument"

# rnd: a random 32-bit number in $r, read by the shell itself (no fork: under TCG
# each process costs tens of ms)
od -An -v -w4 -tu4 -N65536 /dev/urandom | tr -d ' ' >$F/rnd
exec 3<$F/rnd
rnd() { read -r r <&3 || { exec 3<$F/rnd; read -r r <&3; }; }
# show FILE: the value's bytes, escaped, for failure messages
show() { od -An -c "$1" | head -3 | tr -s ' \n' ' '; }
# bad WHAT FILE: one failure, the first 30 with the value shown
bad() {
	NFAIL_SHOWN=$((NFAIL_SHOWN + 1))
	if [ $NFAIL_SHOWN -le 30 ]; then fl_fail "$1 [value: $(show "$2")]"
	else FL_FAILS=$((FL_FAILS + 1)); fi
}

# ---- value generators: each writes one value to the file $1 ----------------
# Edge cases shared by the parameters and the control file's tgid argument;
# the values are printf formats (so \n, \0xx and %% work).
cat >$F/edge <<'EOF'

 
\t
+1
-1
-0
+
-
0x
0X
0x0
0x1
0X3FF
0x3ff
0x400
0x-1
0x+1
0x 1
00
0
07
08
010
0777
01777
1
2
8
768
104
0x3f8
1023
1024
4096
4097
4194303
4194304
4194305
2147483647
2147483648
4294967295
4294967296
18446744073709551615
18446744073709551616
340282366920938463463374607431768211456
0000000000000000000000000000000000000001
0x00000000000000000000000000000000000001
1 
 1
1\t
1,2
1;2
1x
1garbage
0x3fg
0x3ff%%2
1e3
1.0
0b1
1_000
y
n
Y
N
yes
no
on
off
true
false
yesterday
nonsense
enable
""
"1"
'1'
\033[31m1
\303\251
\377\376
\300\200
\331\241
1\240
\2401
\177
1\n
\n1
FAKELINE
EOF
nedge=0
while IFS= read -r l; do eval "E$nedge=\$l"; nedge=$((nedge + 1)); done <$F/edge
# edge N FILE: edge case N
edge() { eval "fmt=\$E$1"; printf "$fmt" >"$2"; }
# rand_value FILE [NONUL]: a random value of one of five kinds
rand_value() {
	rnd
	len=$((1 + (r >> 4) % 40))
	[ $((r % 97)) -eq 0 ] && len=5000	# beyond PAGE_SIZE
	case $((r % 6)) in
	0|1) head -c $len /dev/urandom ;;
	2) od -An -tu8 -N16 /dev/urandom | tr -d ' \n' | head -c $len ;;
	3) printf '0x'; od -An -tx1 -N20 /dev/urandom | tr -d ' \n' | head -c $len ;;
	4) printf '%d' $(((r >> 8) % 5000)) ;;
	5) # a valid-looking value with a random byte before or after it
	   v=$(((r >> 8) % 1100))
	   b=$(head -c 1 /dev/urandom)
	   if [ $((r & 64)) -eq 0 ]; then printf '%s%s' "$v" "$b"; else printf '%s%s' "$b" "$v"; fi ;;
	esac >"$1"
	[ -z "$2" ] || { tr -d '\000' <"$1" >"$1.t"; mv "$1.t" "$1"; }
}

# ---- model of the parameters' grammar (Documentation/module.rst) ------------
# Shell builtins only, like the control file's model below.
# strip0 DIGITS: $d = DIGITS without leading zeros ("0" if all zeros)
strip0() { d=$1; while [ "${d#0}" != "$d" ]; do d=${d#0}; done; d=${d:-0}; }
# pid_is_tgid N: N is a live process (thread group leader), per /proc
pid_is_tgid() {
	tg=
	[ -r /proc/$1/status ] && while read -r key val; do
		[ "$key" = Tgid: ] && { tg=$val; break; }
	done </proc/$1/status
	[ "$tg" = "$1" ]
}
# want_param NAME VALUE: sets W to "accept CANON", "reject", "nosuch N" (a
# valid tgid with no process) or "enodev N" (a valid mask of hooks this
# kernel may not have: accepted or refused with ENODEV)
# Hooks a kernel may lack: do_handle_mm_fault (SPF patchsets only) and
# lock_vma_under_rcu (6.4+) everywhere; on 5.10 also the mmap_lock:*
# tracepoints (5.11+) and lock:contention_begin/end (5.19+): CI drew
# hooks=768 and hooks=104 there, both ENODEV (module.rst's hook table).
ABSENT=0x18
[ "$FL_SERIES" = 5.10 ] && ABSENT=0x3f8
want_param() {
	v=$2 W=reject
	case $1 in
	hooks)
		case $v in
		0[xX]*)	case ${v#0?} in ''|*[!0-9a-fA-F]*) return ;; esac
			strip0 "${v#0?}"
			[ ${#d} -le 3 ] && n=$((0x$d)) || n=99999 ;;
		0*)	case $v in *[!0-7]*) return ;; esac
			strip0 "$v"
			[ ${#d} -le 4 ] && n=$((0$d)) || n=99999 ;;
		[1-9]*)	case $v in *[!0-9]*) return ;; esac
			[ ${#v} -le 4 ] && n=$v || n=99999 ;;
		*)	return ;;
		esac
		if [ $n -lt 1 ] || [ $n -gt 1023 ]; then W=reject
		elif [ $((n & ~ABSENT)) -eq 0 ]; then W="enodev $n"	# only hooks this kernel may lack
		else W="accept $n"; fi ;;
	tgid|maxactive)
		case $v in ''|*[!0-9]*) return ;; esac
		strip0 "$v"
		[ ${#d} -le 8 ] || return
		if [ $1 = maxactive ]; then
			[ $d -le 4096 ] && W="accept $d"
		elif [ $d -gt 4194304 ]; then W=reject
		elif [ $d -eq 0 ] || pid_is_tgid $d; then W="accept $d"
		else W="nosuch $d"; fi ;;
	enable)
		case $v in
		1|y|Y) W="accept Y" ;;
		0|n|N) W="accept N" ;;
		esac ;;
	esac
}

loaded() {
	while read -r m rest; do [ "$m" = faultline ] && return 0; done </proc/modules
	return 1
}
# Whitespace for the kernel's isspace (0xa0 too) and quotes: the loader's
SPLIT=$(printf ' \t\n\v\f\r"\240.')
SPLIT=${SPLIT%.}

# fuzz_param NAME COUNT: edge cases, then COUNT random values
fuzz_param() {
	name=$1
	i=0 acc=0 rej=0 multi=0
	while [ $i -lt $((nedge + $2)) ]; do
		f=$F/p.$name
		if [ $i -lt $nedge ]; then edge $i $f
		else rand_value $f nonul; fi
		i=$((i + 1))
		v=$(cat $f)
		# what insmod passes: no NUL (argv), no trailing newlines ($(...))
		printf '%s' "$v" >$f
		[ "$v" = FAKELINE ] && v=$(printf '"x\nFAKELINE"')
		out=$(insmod /fl/faultline.ko "$name=$v" 2>&1)
		rc=$?
		got= L=
		if loaded; then
			L=1
			[ $rc -eq 0 ] || bad "insmod $name failed (rc $rc) but the module is loaded" $f
			read -r got <$P/$name
		elif [ $rc -eq 0 ]; then bad "insmod $name succeeded but the module is not loaded" $f
		fi
		[ $rc -eq 0 ] && acc=$((acc + 1)) || rej=$((rej + 1))
		# The loader splits on whitespace and strips quotes, ignoring
		# unknown words: such values only need a valid value read back
		# if accepted.
		case $v in
		*["$SPLIT"]*)
			multi=$((multi + 1))
			if [ $rc -eq 0 ]; then
				want_param $name "$got"
				case $W in accept*|nosuch*|enodev*) ;;
				*) bad "insmod $name (split by the loader) accepted, read back '$got' is not valid" $f ;;
				esac
			fi ;;
		*)
			want_param $name "$v"
			case $W:$rc in
			accept*:0|enodev*:0|nosuch*:0)	# nosuch: the process appeared meanwhile
				[ "$got" = "${W#* }" ] || bad "insmod $name accepted, read back '$got', want '${W#* }'" $f ;;
			enodev*:*)
				case $out in *"No such device"*) ;;
				*) bad "insmod $name: want success or ENODEV, got rc $rc '$out'" $f ;;
				esac ;;
			reject:0|accept*:*)
				bad "insmod $name: model says $W, insmod rc $rc '$out'" $f ;;
			*)	case $out in *"$EINVAL"*) ;;
				*) bad "insmod $name: want EINVAL, got rc $rc '$out'" $f ;;
				esac ;;
			esac ;;
		esac
		[ -z "$L" ] || rmmod faultline
	done
	echo "param $name: $i values ($nedge edge cases), $acc loaded, $rej refused, $multi split by the loader"
	fl_check_ge "param $name: values tried" $i $nedge
}

for p in hooks tgid enable maxactive; do
	fuzz_param $p $PARAM_N
done
# The module echoes a rejected value escaped; a raw echo would start a line
# "FAKELINE rejected: ...".  (The loader's own "`VALUE' invalid for
# parameter" line is raw: that one is the kernel's.)
if dmesg | grep -aqE '^(\[[ 0-9.]+\] )?FAKELINE rejected'; then
	fl_fail "a quoted newline in a parameter forged a kernel log line"
else fl_pass "rejected values are echoed escaped (no forged log line)"; fi
fl_check_ge "dmesg 'rejected' lines" "$(dmesg | grep -ac 'faultline: .*rejected')" 4
dmesg | grep -a 'faultline: .*rejected' | tail -40 >/out/dmesg_rejected.txt

# ---- control file, while pft faults -----------------------------------------
fl_check_cmd "insmod (defaults)" insmod /fl/faultline.ko
# want_ctl FILE: sets SZ (bytes) and W, the errno text (or "ok") the model
# expects for one write of FILE.  Shell builtins on od's hex bytes: a
# process costs tens of ms under TCG.
want_ctl() {
	set -- $(od -An -v -tx1 "$1")
	SZ=$#
	[ $# -gt 64 ] && { W="Argument list too long"; return; }
	eval "last=\${$#}"
	n=$#
	[ "$last" = 0a ] && n=$((n - 1))	# the one newline accepted
	body= k=0
	for b; do
		k=$((k + 1))
		[ $k -gt $n ] && break
		case $b in 00|0a) W=$EINVAL; return ;; esac	# NUL, a second newline
		body=$body$b
	done
	case $body in
	656e61626c65|64697361626c65|7265736574) W=ok; return ;;	# enable disable reset
	6d6d61705f6c6f636b206f6e|6d6d61705f6c6f636b206175746f) W=ok; return ;;	# mmap_lock on|auto
	686d66206f6e|686d66206f6666) W=ok; return ;;			# hmf on|off
	626c616d65206f6666) W=ok; return ;;				# blame off
	626c616d65206f6e)	# blame on: ENODEV where no mmap_lock tracepoints (5.10)
		case $FL_SERIES in 5.10) W="No such device" ;; *) W=ok ;; esac
		return ;;
	7467696420*) arg=${body#7467696420} ;;			# "tgid "
	*) W=$EINVAL; return ;;
	esac
	d=
	while [ -n "$arg" ]; do
		pair=${arg%"${arg#??}"}
		case $pair in 3[0-9]) d=$d${pair#3} ;; *) W=$EINVAL; return ;; esac
		arg=${arg#??}
	done
	want_param tgid "$d"
	case $W in
	accept*) W=ok ;;
	nosuch*) W="No such process" ;;
	*) W=$EINVAL ;;
	esac
}
# ctl_value FILE: an edge case, a command with garbage, or random bytes
ctl_value() {
	rnd
	case $((r % 9)) in
	8) set -- $1 enable disable reset "tgid 0" "tgid $$" "tgid 1" "blame on" "blame off"
	   eval printf "'%s\n'" "\"\${$((2 + (r >> 4) % 8))}\"" >$1 ;;
	0|1) rand_value $1 ;;
	2) edge $(((r >> 4) % nedge)) $F/arg; { printf 'tgid '; cat $F/arg; } >$1 ;;
	3) rand_value $F/arg; { printf 'tgid '; cat $F/arg; } >$1 ;;
	4) printf 'tgid %d' $(((r >> 4) % 4194310)) >$1 ;;
	5) set -- $1 enable disable reset "tgid 0" "tgid $$"
	   eval c=\${$((2 + (r >> 4) % 5))}
	   head -c 1 /dev/urandom >$F/b
	   case $(((r >> 8) % 4)) in
	   0) { printf '%s' "$c"; cat $F/b; } ;;
	   1) { cat $F/b; printf '%s' "$c"; } ;;
	   2) printf '%s\n\n' "$c" ;;
	   3) printf '%s' "$c" | head -c $(((r >> 10) % ${#c})) ;;
	   esac >$1 ;;
	6) edge $(((r >> 4) % nedge)) $1 ;;
	7) x=; while [ ${#x} -lt $((60 + (r >> 4) % 10)) ]; do x=${x}x; done
	   printf '%s' $x >$1 ;;
	esac
}

rm -f /tmp/stop
( while [ ! -f /tmp/stop ]; do /fl/pft -m 16m -t 1 >/dev/null 2>&1 || echo "pft failed" >>/tmp/pft_fail; done ) &
bgpid=$!
end=$(($(date +%s) + CTL_S))
i=0 okc=0 errc=0 ro=0 now=0 raced=0
# born_between PID A B: PID was handed out after A, up to B (pids wrap at pid_max)
born_between() {
	if [ "$3" -ge "$2" ]; then [ "$1" -gt "$2" ] && [ "$1" -le "$3" ]
	else [ "$1" -gt "$2" ] || [ "$1" -le "$3" ]; fi
}
while [ $now -lt $end ]; do
	[ $((i % 8)) -eq 0 ] && now=$(date +%s)
	f=$F/c
	ctl_value $f
	i=$((i + 1))
	# the last pid handed out, before the model looks for the tgid: a
	# process the pft loop forks meanwhile gets a pid after it
	read -r lp0 </proc/sys/kernel/ns_last_pid
	want_ctl $f
	[ $SZ -gt 0 ] || continue		# dd writes nothing: no write(2) to test
	sz=$SZ
	out=$(dd if=$f of=$FL_D/control bs=$sz count=1 2>&1)
	rc=$?
	read -r lp1 </proc/sys/kernel/ns_last_pid
	if [ "$W:$rc" = "No such process:0" ] && born_between "$d" "$lp0" "$lp1"; then
		raced=$((raced + 1))	# the tgid appeared between the model and the write
	elif [ "$W" = ok ]; then
		[ $rc -eq 0 ] && okc=$((okc + 1)) || bad "control write: want success, got rc $rc '$out'" $f
	else
		errc=$((errc + 1))
		case $rc:$out in
		0:*) bad "control write: want '$W', got success" $f ;;
		*"$W"*) ;;
		*) bad "control write: want '$W', got rc $rc '$out'" $f ;;
		esac
	fi
	if [ $((i % 25)) -eq 0 ]; then
		# The read-only files and the parameters take no write, even from root.
		for t in $FL_D/snapshot $FL_D/summary $FL_D/hooks $P/hooks $P/tgid $P/enable $P/maxactive; do
			before=$(cat $t 2>/dev/null | od -An -tx1 | head -2)
			if dd if=$f of=$t bs=$sz count=1 conv=notrunc 2>/dev/null; then
				bad "write to read-only $t succeeded" $f
			fi
			ro=$((ro + 1))
			case $t in $P/*) [ "$(cat $t | od -An -tx1 | head -2)" = "$before" ] ||
				bad "$t changed by a refused write" $f ;;
			esac
		done
		cat $FL_D/snapshot >/dev/null && cat $FL_D/summary >/dev/null ||
			bad "snapshot/summary unreadable during the fuzzing" $f
	fi
done
touch /tmp/stop
wait $bgpid
echo "control: $i values, $okc accepted, $errc refused, $raced tgids born during their write; $ro writes to read-only files"
fl_check_ge "control: values tried" $i 50
fl_check_empty "pft runs beside the fuzzing all succeeded" "$(cat /tmp/pft_fail 2>/dev/null)"

# ---- still counting exactly -------------------------------------------------
kmod_ctl "tgid 0" && kmod_ctl reset || fl_fail "good control writes after the fuzzing"
sh -c "echo 'tgid '\$\$ >$FL_D/control && echo enable >$FL_D/control && exec /fl/pft -m $SIZE -t 2" \
	>/out/pft_after.txt 2>&1 || fl_fail "pft after the fuzzing exited $?"
kmod_ctl disable
kmod_save_summary /out/summary_after.txt
fu=$(kmod_sum faults_user)
fl_check_within "faults_user of pft -m $SIZE -t 2 after the fuzzing vs pages" "$fu" $PAGES 1
fl_check_within "faults_timed vs faults_user" "$(kmod_sum faults_timed)" "$fu" 1
fl_invariant "fault_latency count = faults_timed" "$(kmod_hist fault_latency count)" \
	"$(kmod_sum faults_timed)"
fl_check_cmd "rmmod" rmmod faultline
[ $NFAIL_SHOWN -le 30 ] || echo "($((NFAIL_SHOWN - 30)) more failures not shown)"
fl_done
