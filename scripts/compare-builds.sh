#!/usr/bin/env bash
# Times two builds of the harness against each other, search by search, for changes too small
# to see in criterion's separate stretches (this virtual machine's speed drifts by more between
# them). Each build's transposition-table benchmark (`cargo bench --bench tt -- one`) times
# the same search, the two builds' runs alternating (which goes first alternating too), so
# drift hits both alike. Prints, per search, each build's fastest time per node and the
# median of the per-round ratios.
#
# Usage: scripts/compare-builds.sh A B [SEARCH/TABLE[/SCHEME] ...]
#   A, B   git revisions, or `.` for the working tree as it is (uncommitted changes included)
#   SEARCH/TABLE[/SCHEME]   see `one` in benches/tt.rs (default: the never-hit searches and
#          a few with a table that hits, `always` replacement)
# ROUNDS (default 11) pairs per search, each run the fastest of SEARCHES (default 100).
#
# Both builds are timed by this tree's benches/tt.rs (copied into the other's checkout), so
# the library it calls must have the same interface at both revisions.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
rev_a=$1 rev_b=$2
shift 2
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  cases=(tictactoe-natural/never tictactoe-static/never nim-natural/never nim-static/never
    connect4-d8/never uniform-b2/table uniform-b3/table uniform-b8/table chess-d4/never
    tictactoe-natural/table tictactoe-static/table connect4-d8/table)
fi
rounds=${ROUNDS:-11}
searches=${SEARCHES:-100}
root=$(pwd)
work=$(mktemp -d)
cleanup() {
  for side in a b; do
    [ -d "$work/$side" ] && git -C "$root" worktree remove --force "$work/$side" >/dev/null 2>&1
  done
  rm -rf "$work"
}
trap cleanup EXIT

# Builds revision $2's tt benchmark into $work/tt-$1.
build() {
  local side=$1 rev=$2 dir
  if [ "$rev" = . ]; then
    dir=$root
  else
    dir=$work/$side
    git worktree add --detach --quiet "$dir" "$rev"
    cp "$root/benches/tt.rs" "$dir/benches/tt.rs"
  fi
  echo "building $rev ..." >&2
  local exe
  exe=$(cd "$dir" && CARGO_TARGET_DIR="$work/target" cargo bench --bench tt --no-run 2>&1 |
    sed -n 's/.*Executable .*(\(.*\)).*/\1/p' | tail -n 1)
  if [ -z "$exe" ]; then
    echo "could not build the tt benchmark of $rev" >&2
    exit 1
  fi
  case "$exe" in /*) ;; *) exe=$work/target/${exe#target/} ;; esac
  cp "$exe" "$work/tt-$side"
}
build a "$rev_a"
build b "$rev_b"

echo "| search | A = $rev_a, ns/node | B = $rev_b, ns/node | B/A, fastest | B/A, median pair |"
echo "|---|---|---|---|---|"
for c in "${cases[@]}"; do
  : >"$work/times"
  for ((r = 0; r < rounds; r++)); do
    if ((r % 2 == 0)); then order="a b"; else order="b a"; fi
    for side in $order; do
      line=$("$work/tt-$side" one "$c" "$searches")
      echo "$r $side ${line##* }" >>"$work/times"
    done
  done
  sort -n -k1,1 "$work/times" | awk -v c="$c" '
    { t[$1, $2] = $3; n = $1 + 1 }
    END {
      ma = mb = 1e300
      for (i = 0; i < n; i++) {
        if (t[i, "a"] < ma) ma = t[i, "a"]
        if (t[i, "b"] < mb) mb = t[i, "b"]
        q[i] = t[i, "b"] / t[i, "a"]
      }
      for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (q[j] < q[i]) { x = q[i]; q[i] = q[j]; q[j] = x }
      med = (n % 2) ? q[(n - 1) / 2] : (q[n / 2 - 1] + q[n / 2]) / 2
      printf "| %s | %.2f | %.2f | %+.1f%% | %+.1f%% |\n", c, ma, mb, (mb / ma - 1) * 100, (med - 1) * 100
    }'
done
