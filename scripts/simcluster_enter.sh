#!/bin/sh
# Run a command on a host of the simulated cluster (scripts/simcluster.py), as ssh would run it there:
#     simcluster_enter.sh [-x ...] HOST COMMAND...
# hydra calls it as its ssh (`mpiexec -launcher ssh -launcher-exec scripts/simcluster_enter.sh`), so the words
# after HOST are joined and given to a shell, as ssh does. $RINGFLOW_SIMCLUSTER names the cluster's state
# directory, which holds the hosts file and, per host, the boot id and the node-local directory.
# The command gets the host's network namespace plus its own mount and UTS namespaces: the host name, /etc/hosts
# (hydra and the ranks resolve the others by name), /dev/shm (MPICH's shared memory stays on its node) and
# /proc/sys/kernel/random/boot_id (UCX takes processes with one boot id for one machine and would carry their bytes
# through shared memory, never across the simulated link) become the node's own.
set -eu
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done
if [ $# -lt 2 ]; then echo "usage: $0 [-x] HOST COMMAND..." >&2; exit 2; fi
dir=${RINGFLOW_SIMCLUSTER:?"RINGFLOW_SIMCLUSTER is not set: run through scripts/simcluster.py"}
host=$1; shift
if [ ! -d "$dir/$host" ]; then
    echo "$0: $host is not a host of the simulated cluster in $dir (hosts: $(ls "$dir" | tr '\n' ' '))" >&2; exit 255
fi
exec ip netns exec "$(cat "$dir/netns-prefix")-$host" unshare --mount --uts --propagation private sh -c '
    set -e
    dir=$1 host=$2; shift 2
    hostname "$host"
    mount --bind "$dir/hosts" /etc/hosts
    mount --bind "$dir/$host/boot_id" /proc/sys/kernel/random/boot_id
    mount -t tmpfs -o size=50% tmpfs /dev/shm
    mount --bind "$dir/$host/local" "$dir/local"
    exec sh -c "$*"' sh "$dir" "$host" "$*"
