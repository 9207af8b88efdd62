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

wanted=(${1:-})
mpi="${RINGFLOW_MPI:-auto}"
if [[ "$mpi" == wheel ]] || { [[ "$mpi" == auto ]] && ! PATH="${PATH//$venv\/bin:/}" command -v mpiexec >/dev/null; }; then
    wanted+=(mpich)
fi

# The stamp records which extras are installed for which setup.cfg; install only when something is missing.
stamp="$venv/.ringflow-installed"
config="$( { cat "$root/setup.cfg"; ls "$root"/*/__init__.py; } | cksum)"  # the editable install maps the packages once
installed=()
if [[ -f "$stamp" && "$(head -n1 "$stamp")" == "$config" ]]; then
    installed=($(tail -n +2 "$stamp"))
fi
missing=0
for extra in "${wanted[@]}"; do
    [[ " ${installed[*]} " == *" $extra "* ]] || missing=1
done
if [[ ! -f "$stamp" || "$(head -n1 "$stamp")" != "$config" || $missing == 1 ]]; then
    all=($(printf '%s\n' "${installed[@]}" "${wanted[@]}" | sort -u | grep -v '^$' || true))
    extras="$(IFS=,; echo "${all[*]}")"
    echo "ringflow: installing the project into $venv${extras:+ (extras: $extras)}"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -e "$root${extras:+[$extras]}" \
        2> >(grep -v "^WARNING: Location '" >&2)
    printf '%s\n' "$config" "${all[@]}" > "$stamp"
fi
export PATH="$venv/bin:$PATH"
