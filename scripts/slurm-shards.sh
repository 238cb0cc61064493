#!/usr/bin/env bash
# One shard of an experiment per task of a Slurm job array, then the merge once every task
# has finished. From the checkout, on a file system the nodes share:
#
#   cargo build --release
#   jid=$(sbatch --parsable --array=1-8 scripts/slurm-shards.sh experiments/connect4-ordering.toml)
#   sbatch --dependency=afterok:$jid --wrap "./target/release/harness merge experiments/connect4-ordering.toml"
#
# Task I of an array 1-N runs `harness run FILE --shard I/N` into
# results/<name>/shard-I-of-N/ on the task's CPUs; `harness merge FILE` finds those folders.
# Every task runs the one binary, as the merge requires (it refuses shards of two builds).
# Without Slurm, set the two variables by hand: SLURM_ARRAY_TASK_ID=2
# SLURM_ARRAY_TASK_COUNT=8 scripts/slurm-shards.sh FILE.
#SBATCH --job-name=harness-shard
#SBATCH --cpus-per-task=2
#SBATCH --output=harness-shard-%A_%a.log
set -euo pipefail
file=${1:?usage: sbatch --array=1-N scripts/slurm-shards.sh FILE}
i=${SLURM_ARRAY_TASK_ID:?not an array task: sbatch --array=1-N}
n=${SLURM_ARRAY_TASK_COUNT:?SLURM_ARRAY_TASK_COUNT unset (Slurm before 18.08): set it to N}
if [ "${SLURM_ARRAY_TASK_MIN:-1}" != 1 ] || [ "${SLURM_ARRAY_TASK_MAX:-$n}" != "$n" ]; then
  echo "the array must be 1-N with every index (here ${SLURM_ARRAY_TASK_MIN:-?}-${SLURM_ARRAY_TASK_MAX:-?}, $n tasks)" >&2
  exit 2
fi
# (sbatch runs a copy of this script: the checkout is the folder it was submitted from.)
cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}"
exec ./target/release/harness run "$file" --shard "$i/$n" --jobs "${SLURM_CPUS_PER_TASK:-0}" --quiet
