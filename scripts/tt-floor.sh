#!/usr/bin/env bash
# The least a transposition table that never hits can cost, next to what the harness's table
# costs. Builds the tt benchmark twice: as the tree is, and with scripts/tt-floor.patch
# applied (a measurement-only table: a fixed 4,096 slots, a probe that compares the key and
# nothing else, a store that writes the key, depth and score; no counters, no bound, no
# best move, no replacement scheme, no key_bits: wrong as a table, and never run otherwise).
# Then, per search, times each build's never-hit wrapper without and with its table, the four
# runs alternating (which goes first rotating too), so the machine's drift hits all alike.
# Prints the fastest time per node of each, and what each table adds to its own build's
# search without one (so that the two builds' code layouts do not enter the comparison):
# fastest over fastest, and the median of the per-round ratios.
#
# Usage: scripts/tt-floor.sh [SEARCH ...]
#   SEARCH  a search of `one` in benches/tt.rs with the 4,096-slot table (default:
#           tictactoe-natural tictactoe-static nim-natural nim-static uniform-b2 uniform-b3)
# ROUNDS (default 11) rounds per search, each run the fastest of SEARCHES (default 100).
#
# The patch is written against the commit that added it; when src/search/tt.rs or
# alphabeta.rs have changed since so that it no longer applies, the script says so.
set -euo pipefail
cd "$(dirname "$0")/.."
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  cases=(tictactoe-natural tictactoe-static nim-natural nim-static uniform-b2 uniform-b3)
fi
rounds=${ROUNDS:-11}
searches=${SEARCHES:-100}
root=$(pwd)
work=$(mktemp -d)
cleanup() {
  [ -d "$work/floor" ] && git -C "$root" worktree remove --force "$work/floor" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

# Builds the tt benchmark in directory $2 into $work/tt-$1.
build() {
  local side=$1 dir=$2 exe
  echo "building the $side table's benchmark ..." >&2
  exe=$(cd "$dir" && CARGO_TARGET_DIR="$work/target-$side" cargo bench --bench tt --no-run 2>&1 |
    sed -n 's/.*Executable .*(\(.*\)).*/\1/p' | tail -n 1)
  if [ -z "$exe" ]; then
    echo "could not build the tt benchmark in $dir" >&2
    exit 1
  fi
  cp "$exe" "$work/tt-$side"
}
git worktree add --detach --quiet "$work/floor" HEAD
# The working tree's sources and benchmark, uncommitted changes included, then the patch.
cp -r "$root/src" "$root/benches" "$root/Cargo.toml" "$root/Cargo.lock" "$work/floor/"
if ! git -C "$work/floor" apply "$root/scripts/tt-floor.patch"; then
  echo "scripts/tt-floor.patch no longer applies to src/search; rewrite it for the table as it is now" >&2
  exit 1
fi
build shipped "$root"
build floor "$work/floor"

echo "| search | harness: without → with table, ns/node | adds: fastest, median pair | floor: without → with | adds: fastest, median pair |"
echo "|---|---|---|---|---|"
for c in "${cases[@]}"; do
  : >"$work/times"
  runs=("shipped never-none" "shipped never" "floor never-none" "floor never")
  for ((r = 0; r < rounds; r++)); do
    for ((k = 0; k < 4; k++)); do
      set -- ${runs[$(((r + k) % 4))]}
      line=$("$work/tt-$1" one "$c/$2" "$searches")
      echo "$r $1-$2 ${line##* }" >>"$work/times"
    done
  done
  awk -v c="$c" '
    { t[$1, $2] = $3; if ($1 + 1 > n) n = $1 + 1 }
    function med(q, m,   i, j, x) {
      for (i = 0; i < m; i++) for (j = i + 1; j < m; j++) if (q[j] < q[i]) { x = q[i]; q[i] = q[j]; q[j] = x }
      return (m % 2) ? q[(m - 1) / 2] : (q[m / 2 - 1] + q[m / 2]) / 2
    }
    # The fastest of build b without (b-never-none) and with (b-never) its table, and the
    # median ratio of the two over the rounds: "without → with (+fastest%), +median%".
    function row(b,   i, w, x, q) {
      w = x = 1e300
      for (i = 0; i < n; i++) {
        if (t[i, b "-never-none"] < w) w = t[i, b "-never-none"]
        if (t[i, b "-never"] < x) x = t[i, b "-never"]
        q[i] = t[i, b "-never"] / t[i, b "-never-none"]
      }
      return sprintf("%.2f → %.2f | %+.1f%%, %+.1f%%", w, x, (x / w - 1) * 100, (med(q, n) - 1) * 100)
    }
    END { printf "| %s | %s | %s |\n", c, row("shipped"), row("floor") }' "$work/times"
done
