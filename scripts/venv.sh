# Sourced by run.sh and test.sh: make .venv (once) and keep the project installed in it.
# An MPI already on PATH (Open MPI, MPICH, Intel MPI, a cluster module) is used as it is;
# only when none is found does the `mpich` wheel from PyPI provide mpiexec.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
python="${PYTHON:-python3}"

if [[ ! -x "$venv/bin/python" ]]; then
    echo "ringflow: creating $venv"
    "$python" -m venv "$venv"
fi

extras="$1"
if [[ "${RINGFLOW_MPI:-auto}" == wheel ]] || { [[ "${RINGFLOW_MPI:-auto}" == auto ]] && ! PATH="${PATH//$venv\/bin:/}" command -v mpiexec >/dev/null; }; then
    extras="$extras,mpich"
fi
stamp="$venv/.ringflow-installed"
want="$extras $(cat "$root/setup.cfg" | cksum)"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    echo "ringflow: installing the project into $venv (extras: $extras)"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -e "$root[$extras]" \
        2> >(grep -v "^WARNING: Location '" >&2)
    echo "$want" > "$stamp"
fi
export PATH="$venv/bin:$PATH"
