"""tg.train.ClusterSpec and replica_device_setter, in one process (the MPI jobs are in tests/test_ps_cluster.py)."""
import pytest

import trainer as tg


def test_a_cluster_spec_is_a_cluster_def_and_back():
    spec = tg.train.ClusterSpec({"worker": ["a:1", "b:2"], "ps": {3: "c:3"}})
    cluster_def = spec.as_cluster_def()
    assert [job.name for job in cluster_def.job] == ["ps", "worker"]  # by name, as TF
    assert dict(cluster_def.job[1].tasks) == {0: "a:1", 1: "b:2"}
    assert tg.train.ClusterSpec(cluster_def) == spec
    server_def = tg.train.ServerDef(cluster=cluster_def, job_name="worker", task_index=1)
    assert tg.train.ServerDef.FromString(server_def.SerializeToString()) == server_def
    with pytest.raises(TypeError, match="a ClusterDef or a ClusterSpec"):
        tg.train.ClusterSpec(server_def)  # TF takes a ServerDef in Server, not in ClusterSpec


def test_a_local_servers_server_def_names_its_task():
    server = tg.train.Server.create_local_server()
    server_def = server.server_def
    assert (server_def.job_name, server_def.task_index, server_def.protocol) == ("localhost", 0, "mpi")
    assert tg.train.ClusterSpec(server_def.cluster) == server.cluster_spec


def test_cluster_spec_reads_jobs_tasks_and_addresses():
    spec = tg.train.ClusterSpec({"ps": ["a:1"], "worker": {0: "b:2", 2: "c:3"}})
    assert spec.jobs == ["ps", "worker"]
    assert spec.num_tasks("worker") == 2 and spec.task_indices("worker") == [0, 2]
    assert spec.task_address("worker", 2) == "c:3"
    assert spec.job_tasks("worker") == ["b:2", None, "c:3"]
    assert spec.as_dict() == {"ps": ["a:1"], "worker": {0: "b:2", 2: "c:3"}}
    assert tg.train.ClusterSpec(spec) == spec and bool(spec)
    with pytest.raises(ValueError, match="No such job in cluster: 'chief'"):
        spec.num_tasks("chief")
    with pytest.raises(ValueError, match="No task with index 1 in job 'worker'"):
        spec.task_address("worker", 1)


def test_replica_device_setter_places_variables_round_robin_and_slots_with_them():
    cluster = {"ps": ["a:1", "b:2"], "worker": ["c:3"]}
    with tg.Graph().as_default():
        with tg.device(tg.train.replica_device_setter(worker_device="/job:worker/task:0", cluster=cluster)):
            w = tg.Variable(tg.zeros([2]), name="w")
            b = tg.Variable(tg.zeros([2]), name="b")
            c = tg.Variable(tg.zeros([2]), name="c")
            loss = tg.reduce_sum(w * b + c)
            tg.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
        devices = {v.op.name: v.op.device for v in tg.global_variables()}
    assert devices["w"] == "/job:ps/task:0" and devices["b"] == "/job:ps/task:1" and devices["c"] == "/job:ps/task:0"
    assert devices["w/Momentum"] == devices["w"] and devices["b/Momentum"] == devices["b"]
    assert loss.op.device == "/job:worker/task:0"


def test_replica_device_setter_without_ps_tasks_places_nothing():
    assert tg.train.replica_device_setter(cluster={"worker": ["a:1"]}) is None
