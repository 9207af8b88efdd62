"""Which MPI rank runs which (job, task) of a ClusterSpec: announced by every rank, checked by every rank.

A process started alone (one rank) may still create its Server, as a TF1 notebook does before training in a
plain tg.Session(): the other tasks are absent, which is an error only once something needs one of them.
"""
import collections
import warnings


class Peers:
    """The rank of each (job, task) of the cluster, and this process's own (job, task)."""

    absent = ()  # the (job, task) pairs no process runs: only a task started alone has some

    def __init__(self, comm, job_name, task_index, ranks):
        self.comm, self.job_name, self.task_index, self.ranks = comm, job_name, task_index, ranks

    def rank(self, job, task):
        return self.ranks[(job, task)]

    def job_ranks(self, job):
        return [r for (j, t), r in sorted(self.ranks.items()) if j == job]


def find_peers(cluster, job_name, task_index, comm=None):
    """Announce (job_name, task_index) to every rank (an allgather) and check the answers against `cluster`.

    Every rank sees the same announcements, so every rank raises the same error: nothing hangs.
    """
    from mpi4py import MPI
    world = comm or MPI.COMM_WORLD
    expected = {(job, t) for job in cluster.jobs for t in cluster.task_indices(job)}
    if world.Get_size() == 1 and len(expected) > 1:
        return LonePeers(world.Dup(), job_name, task_index, sorted(expected - {(job_name, task_index)}))
    announced = world.allgather((job_name, task_index))
    by_task = collections.defaultdict(list)
    for rank, key in enumerate(announced):
        by_task[key].append(rank)
    doubled = {k: r for k, r in by_task.items() if len(r) > 1}
    if doubled:
        (job, task), ranks = sorted(doubled.items())[0]
        raise ValueError(f"Task {task} of job {job!r} is started by more than one process (MPI ranks {ranks!r}): "
                         "give each program its own task_index")
    unknown = sorted(set(by_task) - expected)
    if unknown:
        job, task = unknown[0]
        raise ValueError(f"MPI rank {by_task[unknown[0]][0]} announced job {job!r} task {task}, which the "
                         f"ClusterSpec does not list (it has {sorted(expected)!r})")
    missing = sorted(expected - set(by_task))
    if missing:
        names = ", ".join(f"{j!r} task {t}" for j, t in missing)
        raise RuntimeError(f"No process runs {names} of the ClusterSpec: the job has {world.Get_size()} rank(s) "
                           f"{sorted(by_task)!r}. Start one program per task in the same mpiexec (MPMD: "
                           f"`mpiexec -n 1 python ps.py : -n 1 python worker.py : ...`)")
    return Peers(world.Dup(), job_name, task_index, {k: r[0] for k, r in by_task.items()})


class LonePeers(Peers):
    """This task, started alone: every other task of the cluster is absent. Asking for the rank of one (a
    session placing variables on /job:ps, server.join()) raises, naming it and saying how to launch them."""

    def __init__(self, comm, job_name, task_index, absent):
        super().__init__(comm, job_name, task_index, {(job_name, task_index): 0})
        self.absent = absent
        warnings.warn(f"tf.train.Server: this process runs {job_name!r} task {task_index}, alone: no process runs "
                      f"{_names(absent)}. Sessions that need none of them run here; one that does fails. "
                      f"{_LAUNCH}", RuntimeWarning, stacklevel=4)

    def rank(self, job, task):
        if (job, task) in self.ranks:
            return self.ranks[(job, task)]
        raise RuntimeError(self.missing(f"{job!r} task {task} is needed"))

    def missing(self, need):
        """The error message for `need` ("X is needed"), which a task that is not running would answer."""
        return (f"{need}, but this process ({self.job_name!r} task {self.task_index} of the cluster) was "
                f"started alone: no process runs {_names(self.absent)}. {_LAUNCH}")


_LAUNCH = ("ringflow's cluster runs as one MPI job, every task a rank: launch all the programs together (MPMD), one "
           "process per task, e.g. `mpiexec -n 1 python ps.py : -n 1 python worker.py : -n 1 python worker2.py`")


def _names(tasks):
    return ", ".join(f"{j!r} task {t}" for j, t in tasks)
