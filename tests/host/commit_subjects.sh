#!/bin/sh
# Commit subjects stay within 72 characters (issue 29): every commit after
# 31ff009, the last that broke the rule (git's own 'Revert "..."' subject;
# the 384 longer subjects before it are landed history and stay as they
# are).  Characters, not bytes: a subject may hold UTF-8.  A clone that
# lacks 31ff009 (a shallow one) checks its HEAD only; a tree that is not a
# git checkout is skipped, with the reason.
#   tests/host/commit_subjects.sh [OUTDIR] [REV]   REV: HEAD by default
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host/commit_subjects}
REV=${2:-HEAD}
BASE=31ff009b89e1ee2bbf105ffa7b496574ba4f4631
MAX=72
mkdir -p "$OUT"
cd "$TOP" || exit 1
git rev-parse --git-dir >/dev/null 2>&1 || fl_skip "not a git checkout"
git rev-parse --verify -q "$REV^{commit}" >/dev/null || { fl_fail "no commit $REV"; fl_done; }
if git cat-file -e "$BASE^{commit}" 2>/dev/null && git merge-base --is-ancestor "$BASE" "$REV"; then
	range="$BASE..$REV"
else
	range="-1 $REV"
	echo "31ff009 not in this clone: $REV only"
fi
# shellcheck disable=SC2086 # range is one or two words
git log --no-merges --format='%h %s' $range >"$OUT/subjects.txt"
n=$(wc -l <"$OUT/subjects.txt")
echo "commits checked: $n ($range)"
fl_check_ge "commits checked" "$n" 1
long=$(python3 -c '
import sys
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    h, _, s = line.rstrip("\n").partition(" ")
    if len(s) > int(sys.argv[2]):
        print("%s (%d): %s" % (h, len(s), s))
' "$OUT/subjects.txt" "$MAX")
fl_check_empty "subjects over $MAX characters" "$long"
fl_check_empty "empty subjects" "$(awk 'NF < 2' "$OUT/subjects.txt")"
fl_done
