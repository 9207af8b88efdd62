"""tf.train.Server in a process started alone, as a TF1 notebook makes one: creating it warns and names the absent
tasks; training in a plain Session works; what needs an absent task (a ps-placed variable, join()) fails clearly.
Each case runs in its own Python process: a Server is one per process and outlives the test otherwise."""
import subprocess
import sys
import textwrap

import pytest

from tests.mpirun import mpi_env

CLUSTER = 'tf.train.ClusterSpec({"ps": ["localhost:2222"], "worker": ["localhost:2223", "localhost:2224"]})'


def _python(code, tmp_path):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=tmp_path, env=mpi_env(), timeout=120,
                          capture_output=True, text=True)


def _train_in_a_plain_session():
    return """
        X = tf.placeholder(tf.float32)
        W = tf.Variable(0.0)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.square(X * W - 2.0 * X))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(100):
                sess.run(train, {X: 1.0})
            print("W", sess.run(W))
    """


@pytest.mark.parametrize("job", ["ps", "worker"])
def test_a_server_whose_peers_are_absent_warns_and_plain_sessions_train(job, tmp_path):
    code = f"""
        import trainer as tf
        cluster = {CLUSTER}
        server = tf.train.Server(cluster, job_name={job!r}, task_index=0)
        print("target", server.target)
    """ + _train_in_a_plain_session()
    run = _python(code, tmp_path)
    assert run.returncode == 0, run.stderr
    absent = {"ps": "'worker' task 0, 'worker' task 1", "worker": "'ps' task 0, 'worker' task 1"}[job]
    assert f"this process runs {job!r} task 0, alone: no process runs {absent}" in run.stderr
    assert run.stderr.count("RuntimeWarning") == 1
    assert abs(float(run.stdout.split("W ")[-1]) - 2.0) < 1e-4  # W * x fits 2 * x


def test_a_lone_worker_session_without_ps_placement_runs_locally(tmp_path):
    code = f"""
        import trainer as tf
        server = tf.train.Server({CLUSTER}, job_name="worker", task_index=1)
        v = tf.Variable(3.0)
        with tf.Session(server.target) as sess:
            sess.run(tf.global_variables_initializer())
            print("v", sess.run(v * 2.0))
    """
    run = _python(code, tmp_path)
    assert run.returncode == 0, run.stderr
    assert "v 6.0" in run.stdout


def test_what_needs_an_absent_task_fails_naming_it(tmp_path):
    placed = _python(f"""
        import trainer as tf
        cluster = {CLUSTER}
        server = tf.train.Server(cluster, job_name="worker", task_index=0)
        with tf.device(tf.train.replica_device_setter(cluster=cluster)):
            w = tf.Variable(1.0)
        with tf.Session(server.target) as sess:
            sess.run(w.initializer)
    """, tmp_path)
    assert placed.returncode != 0
    assert "RuntimeError: 'ps' task 0 is needed, but this process ('worker' task 0 of the cluster) was started " \
           "alone" in placed.stderr
    assert "mpiexec -n 1 python ps.py : -n 1 python worker.py" in placed.stderr
    joined = _python(f"""
        import trainer as tf
        server = tf.train.Server({CLUSTER}, job_name="ps", task_index=0)
        try:
            server.join()
        except RuntimeError as e:
            print("join refused:", e)
    """, tmp_path)
    assert joined.returncode == 0, joined.stderr
    assert "join refused: server.join() serves the workers, but this process ('ps' task 0 of the cluster) was " \
           "started alone: no process runs 'worker' task 0, 'worker' task 1" in joined.stdout


def test_a_cluster_of_one_task_needs_no_peers(tmp_path):
    run = _python("""
        import warnings
        warnings.simplefilter("error")
        import trainer as tf
        server = tf.train.Server(tf.train.ClusterSpec({"local": ["localhost:2222"]}), job_name="local",
                                 task_index=0)
        print("ok", server.target)
    """, tmp_path)
    assert run.returncode == 0, run.stderr
    assert "ok mpi://localhost:2222" in run.stdout


def test_a_server_def_names_the_task_a_server_runs(tmp_path):
    run = _python("""
        import trainer as tf
        cluster = tf.train.ClusterSpec({"local": ["localhost:2222", "localhost:2223"]}).as_cluster_def()
        server = tf.train.Server(tf.train.ServerDef(cluster=cluster, job_name="local", task_index=1))
        print("task", server.job_name, server.task_index, server.target)
        print("def", server.server_def.job_name, server.server_def.task_index)
    """, tmp_path)
    assert run.returncode == 0, run.stderr
    assert "task local 1 mpi://localhost:2223" in run.stdout and "def local 1" in run.stdout
