#!/usr/bin/env bash
# Set up .venv if needed, then run the main job: a short two-rank training run on synthetic data.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh" ""
cd "$root"
if [[ $EUID == 0 ]]; then  # containers often run as root; Open MPI refuses that unless told (MPICH ignores these)
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
exec mpiexec -n 2 ringflow train --model mlp --dataset synthetic-classes --batch-size 64 \
    --epochs 5 --optimizer adam --lr 0.01 --seed 0 "$@"
