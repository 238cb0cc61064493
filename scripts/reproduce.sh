#!/usr/bin/env bash
# Rebuilds every committed result: for each experiment listed in results/experiments.txt,
# runs experiments/<name>.toml into results/<name>/ (runs.csv, summary.csv, charts/,
# report.md, manifest.json, experiment.toml). Counters are identical on any machine and with
# any --jobs; only the time columns and manifest.json change.
#
# Usage: scripts/reproduce.sh [NAME...]   (default: every listed experiment)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  while read -r name _; do
    case "$name" in ''|'#'*) continue ;; esac
    names+=("$name")
  done < results/experiments.txt
fi
for name in "${names[@]}"; do
  echo "== $name"
  ./target/release/harness run "experiments/$name.toml" --out "results/$name" --quiet
done
