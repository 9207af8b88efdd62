#!/usr/bin/env bash
# Set up .venv if needed, then run the main job: a short two-rank training run on synthetic data.
# A script cannot change the PATH of the shell that started it, so it ends by printing what to type next.
set -euo pipefail
caller="$PWD"
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh" ""
cd "$root"
if [[ $EUID == 0 ]]; then  # containers often run as root; Open MPI refuses that unless told (MPICH ignores these)
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
status=0
mpiexec -n 2 ringflow train --model mlp --dataset synthetic-classes --batch-size 64 \
    --epochs 5 --optimizer adam --lr 0.01 --seed 0 "$@" || status=$?
if [[ $status == 0 ]]; then
    activate="$venv/bin/activate"
    [[ "$(cd "$caller" && pwd -P)" == "$(pwd -P)" ]] && activate=".venv/bin/activate"
    root_mpi=""
    if [[ $EUID == 0 ]] && mpiexec --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
        root_mpi=$'\n    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1   # Open MPI, run as root'
    fi
    cat >&2 <<MSG

ringflow is installed in $venv. To put ringflow, mpiexec and the venv's python on this shell's PATH:

    source $(printf %q "$activate")$root_mpi

then, for example:

    ringflow train --help
    mpiexec -n 2 ringflow train --model mlp --dataset synthetic-classes --epochs 5 --logdir runs/mlp
MSG
fi
exit $status
