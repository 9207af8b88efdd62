"""A cluster simulated on one machine: N nodes, each a network namespace with its own host name, address, boot id,
/dev/shm and node-local directory, joined by a bridge, links optionally shaped with tc; mpiexec (hydra) runs
across them, entering the nodes through scripts/simcluster_enter.sh as it would enter real ones through ssh.

    sudo .venv/bin/python scripts/simcluster.py --nodes 2 --ppn 2 [--placement cyclic] [--rate 1gbit] -- \\
        ringflow train --model mlp --dataset synthetic-classes --steps 20

             ringflow-<pid>-<k>-sw: br0 (the switch; no address, no route out)
          v0 /        v1 |        ...      \\ vh
     node0 eth0    node1 eth0                head eth0   <- each its own network namespace
    10.77.0.1     10.77.0.2                10.77.0.254      mpiexec runs on "head", ranks on node0..nodeN-1

Every interface lives in a namespace created here (the veth pairs are made inside them), the addresses are private
and no namespace has a default route: no byte leaves the simulated cluster. With --rate, both directions of each
node's link go through a token bucket (tc tbf), so a node sends and receives at most that rate. The kernel here
has no netem, so links have no added delay.

Needs root, `ip netns` and `unshare`. The cluster is always torn down: on return, on an exception and on
SIGTERM/SIGINT/SIGHUP; clusters left by a killed run (their creating process is gone) are removed by the next one,
or by `scripts/simcluster.py --cleanup`.
"""
import argparse
import itertools
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ENTER = os.path.join(HERE, "simcluster_enter.sh")
MPIEXEC = os.path.join(os.path.dirname(sys.executable), "mpiexec")
PREFIX = "ringflow-"  # every namespace and state directory made here starts with it, then the creator's pid
STATE_ROOT = "/tmp"
SUBNET = "10.77.0"  # private (RFC 1918), on our own bridge only
HEAD = "head"
# tbf's bucket holds a few TSO bursts yet stays small against the 4+ MiB the benchmark sends (a bigger one lets
# short messages beat the link rate); the 50 ms queue keeps TCP out of slow start on every burst.
BURST, QUEUE = "256kb", "50ms"
_serial = itertools.count()


def available():
    """None when simulated clusters can run here, else why not."""
    if os.geteuid() != 0:
        return "simulated clusters need root (network namespaces, bind mounts)"
    for tool in ("ip", "unshare", "tc", "nsenter"):
        if shutil.which(tool) is None:
            return f"simulated clusters need {tool!r} on PATH"
    if not os.path.exists(MPIEXEC):
        return f"no mpiexec next to {sys.executable!r} (the mpich wheel's hydra)"
    probe = f"{PREFIX}probe-{os.getpid()}"
    if subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode != 0:
        return "`ip netns add` fails here"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def sh(*argv, check=True):
    proc = subprocess.run(argv, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise RuntimeError(f"{shlex.join(argv)!r} failed ({proc.returncode}): {proc.stderr.strip()}")
    return proc


def hosts_arg(nodes, ppn, placement="block"):
    """hydra's -hosts for `ppn` ranks on each of `nodes` nodes: block fills node0 first (ranks 0..ppn-1 there),
    cyclic deals ranks out one per node in turn, as Slurm's distributions do."""
    if placement not in ("block", "cyclic"):
        raise ValueError(f"placement {placement!r}: use 'block' or 'cyclic'")
    per = ppn if placement == "block" else 1
    return ",".join(f"node{i}:{per}" for i in range(nodes))


class SimCluster:
    """`with SimCluster(2, rate="1gbit") as c: c.run(["python", "x.py"], ppn=2)`; see the module docstring."""

    def __init__(self, nodes, rate=None):
        if nodes < 1 or nodes > 250:
            raise ValueError(f"nodes={nodes!r}: a simulated cluster has 1 to 250 nodes")
        self.nodes, self.rate = nodes, rate
        self.hosts = [f"node{i}" for i in range(nodes)]
        self.id = f"{PREFIX}{os.getpid()}-{next(_serial)}"
        self.dir = os.path.join(STATE_ROOT, self.id)
        self.local_dir = os.path.join(self.dir, "local")  # each node sees its own directory at this path
        self._up = False

    def netns(self, host):
        return f"{self.id}-{host}"

    def node_local(self, host):
        """Where `host`'s node-local directory (self.local_dir, seen from the node) lies on this machine."""
        return os.path.join(self.dir, host, "local")

    def __enter__(self):
        self.up()
        return self

    def __exit__(self, *exc):
        self.down()

    def up(self):
        cleanup_leftovers()
        self._up = True  # from here on down() has something to remove, even if up() fails half way
        os.makedirs(self.local_dir)
        with open(os.path.join(self.dir, "netns-prefix"), "w") as f:
            f.write(self.id)
        addresses = {host: f"{SUBNET}.{i + 1}" for i, host in enumerate(self.hosts)}
        addresses[HEAD] = f"{SUBNET}.254"
        with open(os.path.join(self.dir, "hosts"), "w") as f:
            f.write("127.0.0.1 localhost\n" + "".join(f"{a} {h}\n" for h, a in addresses.items()))
        switch = self.netns("sw")
        sh("ip", "netns", "add", switch)
        sh("ip", "-n", switch, "link", "add", "br0", "type", "bridge")
        sh("ip", "-n", switch, "link", "set", "br0", "up")
        for i, (host, address) in enumerate(addresses.items()):
            os.makedirs(os.path.join(self.dir, host, "local"))
            with open(os.path.join(self.dir, host, "boot_id"), "w") as f:
                f.write(f"{uuid.uuid4()}\n")
            ns, port = self.netns(host), "vh" if host == HEAD else f"v{i}"
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", switch, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", ns)
            sh("ip", "-n", switch, "link", "set", port, "master", "br0", "up")
            sh("ip", "-n", ns, "addr", "add", f"{address}/24", "dev", "eth0")
            sh("ip", "-n", ns, "link", "set", "eth0", "up")
            sh("ip", "-n", ns, "link", "set", "lo", "up")
            if self.rate and host != HEAD:
                for where, dev in ((ns, "eth0"), (switch, port)):
                    sh("tc", "-n", where, "qdisc", "add", "dev", dev, "root", "tbf",
                       "rate", self.rate, "burst", BURST, "latency", QUEUE)

    def mpiexec(self, command, ppn=1, placement="block", nodes=None, np=None):
        """argv that runs `command` (a list) under mpiexec on the head, `ppn` ranks on each of the first
        `nodes` nodes (all by default), placed block or cyclic."""
        nodes = self.nodes if nodes is None else nodes
        np = nodes * ppn if np is None else np
        run = [MPIEXEC, "-launcher", "ssh", "-launcher-exec", ENTER,
               "-hosts", hosts_arg(nodes, ppn, placement), "-n", str(np), *command]
        return [ENTER, HEAD, shlex.join(run)]

    def env(self, extra=None):
        env = dict(os.environ, RINGFLOW_SIMCLUSTER=self.dir, **(extra or {}))
        env.pop("HYDRA_HOST_FILE", None)  # a host file from the real machine would override -hosts
        return env

    def run(self, command, ppn=1, placement="block", nodes=None, env=None, timeout=600, **kwargs):
        """Run `command` across the nodes under mpiexec; a subprocess.CompletedProcess (text output)."""
        return subprocess.run(self.mpiexec(command, ppn, placement, nodes), env=self.env(env), timeout=timeout,
                              capture_output=True, text=True, **kwargs)

    def popen(self, command, ppn=1, placement="block", nodes=None, env=None, **kwargs):
        return subprocess.Popen(self.mpiexec(command, ppn, placement, nodes), env=self.env(env), text=True, **kwargs)

    def cut(self, host):
        """Unplug `host`'s cable: its switch port goes down, nothing reaches or leaves it any more."""
        sh("ip", "-n", self.netns("sw"), "link", "set", f"v{self.hosts.index(host)}", "down")

    def down(self):
        if self._up:
            remove(self.id)
            self._up = False


def remove(cluster_id):
    """Kill what still runs in the cluster's namespaces, delete them and its state directory (idempotent)."""
    names = sh("ip", "netns", "list", check=False).stdout.split()
    mine = [n for n in names if n.startswith(cluster_id + "-")]
    for ns in mine:
        for pid in sh("ip", "netns", "pids", ns, check=False).stdout.split():
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
    for ns in mine:
        sh("ip", "netns", "del", ns, check=False)
    shutil.rmtree(os.path.join(STATE_ROOT, cluster_id), ignore_errors=True)


def cleanup_leftovers(everything=False):
    """Remove clusters whose creating process is gone (all of ours when `everything`); returns their ids."""
    found = set()
    names = sh("ip", "netns", "list", check=False).stdout.split() + os.listdir(STATE_ROOT)
    for name in names:
        m = re.match(rf"({re.escape(PREFIX)}(\d+)-\d+)(-|$)", name)
        if m and (everything or not os.path.exists(f"/proc/{m.group(2)}")):
            found.add(m.group(1))
    for cluster_id in sorted(found):
        remove(cluster_id)
    return sorted(found)


def _exit_on_signal(signum, frame):
    raise SystemExit(128 + signum)  # unwinds through `with SimCluster`, which tears the cluster down


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="example: simcluster.py --nodes 3 --rate 1gbit -- python -m mpi4py x.py")
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--ppn", type=int, default=1, help="ranks per node")
    ap.add_argument("--placement", choices=("block", "cyclic"), default="block")
    ap.add_argument("--rate", help="link rate for tc tbf, e.g. 1gbit (default: unshaped)")
    ap.add_argument("--timeout", type=float, default=None, help="seconds before the job is killed")
    ap.add_argument("--cleanup", action="store_true", help="only remove every leftover simulated cluster")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    problem = available()
    if problem:
        sys.exit(f"simcluster: {problem}")
    if args.cleanup:
        print("removed:", *cleanup_leftovers(everything=True) or ["nothing"])
        return 0
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("give the command to run after --")
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _exit_on_signal)
    with SimCluster(args.nodes, rate=args.rate) as cluster:
        proc = cluster.popen(command, args.ppn, args.placement)
        try:
            return proc.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            sys.stderr.write(f"simcluster: the job ran past --timeout {args.timeout}s; tearing the cluster down\n")
            return 124
        finally:
            if proc.poll() is None:
                proc.kill()


if __name__ == "__main__":
    sys.exit(main())
