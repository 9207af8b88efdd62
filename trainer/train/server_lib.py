"""tf.train.ClusterSpec and tf.train.Server, with MPI as the transport.

The cluster is one MPI job (MPMD: `mpiexec -n 1 python ps.py : -n 1 python worker.py : ...`). The
"host:port" strings of a ClusterSpec are task names here, not sockets: a Server finds the rank of every
(job, task) by an allgather of what each rank announces, and checks them against the spec. As with a
communicator (allreduce/abort.py), once a Server of more than one rank exists an uncaught exception on any
rank aborts the whole job, so a crashed worker never leaves the ps and the other workers waiting.
Server.create_local_server() is the exception: a one-task server inside this process (local_server.py).
"""
from . import local_server
from .cluster_protos import ClusterDef, JobDef, ServerDef

RUNTIMES = []  # the cluster runtime: trainer.parallel.ps registers itself here when trainer is imported


def register_runtime(runtime):
    """Let Servers run on `runtime`: an object with `target_prefix`, `start(cluster_spec, job_name, task_index)`
    (finds the peers, returns this task's handle) and `serve(handle)` (a ps task's loop)."""
    RUNTIMES[:] = [runtime]


def _runtime():
    if not RUNTIMES:
        raise RuntimeError("tg.train.Server needs ringflow's cluster runtime (trainer.parallel.ps), which `import "
                           "trainer` registers: import trainer before creating a Server")
    return RUNTIMES[0]


class ClusterSpec:
    """The jobs of a cluster and the address of each task: {"ps": [...], "worker": [...]} (TF1)."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        if isinstance(cluster, ClusterDef):
            cluster = {job.name: dict(job.tasks) for job in cluster.job}
        if not isinstance(cluster, dict):
            raise TypeError(f"ClusterSpec takes a dict of job name -> list (or dict task index -> address), "
                            f"a ClusterDef or a ClusterSpec, got {cluster!r}")
        self._jobs = {}
        for job, tasks in cluster.items():
            if not isinstance(job, str):
                raise TypeError(f"Job names must be strings, got {job!r}")
            if isinstance(tasks, dict):
                table = {int(t): a for t, a in tasks.items()}
            elif isinstance(tasks, (list, tuple)):
                table = dict(enumerate(tasks))
            else:
                raise TypeError(f"The tasks of job {job!r} must be a list or a dict of task index -> address, "
                                f"got {tasks!r}")
            for a in table.values():
                if not isinstance(a, str):
                    raise TypeError(f"Task addresses of job {job!r} must be strings, got {a!r}")
            self._jobs[job] = table

    def __bool__(self):
        return bool(self._jobs)

    def __eq__(self, other):
        return isinstance(other, ClusterSpec) and self._jobs == other._jobs

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return f"ClusterSpec({self.as_dict()!r})"

    @property
    def jobs(self):
        return sorted(self._jobs)

    def as_dict(self):
        """Each job's tasks: a list when the indices are 0..n-1, else a dict index -> address (TF1)."""
        out = {}
        for job, table in self._jobs.items():
            out[job] = [table[i] for i in range(len(table))] if sorted(table) == list(range(len(table))) else dict(table)
        return out

    def num_tasks(self, job_name):
        return len(self._table(job_name))

    def task_indices(self, job_name):
        return sorted(self._table(job_name))

    def task_address(self, job_name, task_index):
        table = self._table(job_name)
        if task_index not in table:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r} (it has {sorted(table)!r})")
        return table[task_index]

    def job_tasks(self, job_name):
        """The addresses of the job's tasks by index, None for gaps (TF1)."""
        table = self._table(job_name)
        return [table.get(i) for i in range(max(table) + 1)] if table else []

    def as_cluster_def(self):
        """The cluster as TF's ClusterDef message, jobs by name."""
        return ClusterDef(job=[JobDef(name=job, tasks=self._jobs[job]) for job in self.jobs])

    def _table(self, job_name):
        if job_name not in self._jobs:
            raise ValueError(f"No such job in cluster: {job_name!r} (jobs: {self.jobs!r})")
        return self._jobs[job_name]


class Server:
    """This process's task of the cluster. Workers pass `server.target` to their session; a ps calls join().

    protocol, config and start are accepted: MPI is the only protocol and the server is ready once the
    ranks have found each other.
    """

    def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None, config=None,
                 start=True):
        if isinstance(server_or_cluster_def, ServerDef):  # its task unless the arguments name another
            server_def = server_or_cluster_def
            server_or_cluster_def = server_def.cluster
            job_name = job_name or server_def.job_name or None
            task_index = server_def.task_index if task_index is None else task_index
        cluster = ClusterSpec(server_or_cluster_def)
        if job_name is None:
            if len(cluster.jobs) != 1:
                raise ValueError(f"Server needs job_name: the cluster has jobs {cluster.jobs!r}")
            job_name = cluster.jobs[0]
        if task_index is None:
            task_index = 0
        if job_name not in cluster.jobs:
            raise ValueError(f"Job {job_name!r} is not in the ClusterSpec (jobs: {cluster.jobs!r})")
        cluster.task_address(job_name, task_index)
        self.cluster_spec = cluster
        self.job_name, self.task_index = job_name, task_index
        self._task = _runtime().start(cluster, job_name, task_index)

    @property
    def target(self):
        """The session target of this task: "mpi://<its address>"."""
        return _runtime().target_prefix + self.cluster_spec.task_address(self.job_name, self.task_index)

    @property
    def server_def(self):
        """This task as TF's ServerDef: the cluster, the job and task, over MPI."""
        return ServerDef(cluster=self.cluster_spec.as_cluster_def(), job_name=self.job_name,
                         task_index=self.task_index, protocol="mpi")

    def start(self):
        """Accepted for TF1 programs: the server already serves once created."""

    def join(self):
        """On a ps task: serve the workers until every one has finished, then end this process.

        TF1's join never returns (the ps is killed); ending the ps task with SystemExit(0) keeps that
        meaning -- the code after join() in a shared ps/worker program is worker code -- and lets the job end.
        """
        if self.job_name != "ps":
            raise RuntimeError(f"server.join() is what a ps task runs; this is {self.job_name!r} task "
                               f"{self.task_index}: train with tg.Session(server.target) instead")
        if self._task.absent:  # TF1 would wait forever for workers that were never started
            raise RuntimeError(self._task.missing("server.join() serves the workers"))
        _runtime().serve(self._task)
        raise SystemExit(0)

    @staticmethod
    def create_local_server(config=None, start=True):
        """A new one-task server in this process (TF1): sessions on its target run here and share its variables."""
        return LocalServer()


class LocalServer(Server):
    """The server of create_local_server: job "localhost", task 0, in this process (local_server.py)."""

    def __init__(self):  # not Server's: no cluster runtime, since nothing outside this process takes part
        self.cluster_spec = ClusterSpec({"localhost": [local_server.start()]})
        self.job_name, self.task_index = "localhost", 0

    @property
    def target(self):
        """The session target of this server: "local://localhost:K"."""
        return local_server.TARGET_PREFIX + self.cluster_spec.task_address("localhost", 0)

    def join(self):
        raise RuntimeError("server.join() on a local server would wait forever: its sessions run in this "
                           "process, so there is nothing to serve; run tg.Session(server.target) instead")
