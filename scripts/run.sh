#!/usr/bin/env bash
# Set up .venv if needed, then run the main job: a short two-rank training run on synthetic data.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh" ""
cd "$root"
exec mpiexec -n 2 ringflow train --model mlp --dataset synthetic-classes --batch-size 64 \
    --epochs 5 --optimizer adam --lr 0.01 --seed 0 "$@"
