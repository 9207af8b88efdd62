#!/usr/bin/env bash
# Set up .venv if needed, then run the whole pytest suite (multi-rank tests are launched by tests/test_mpi_launcher.py).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh" "test"
cd "$root"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
exec python -m pytest -q "$@"
