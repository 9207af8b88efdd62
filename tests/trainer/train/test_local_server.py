"""tf.train.Server.create_local_server(): a one-task server in this process, as TF1's (no MPI, no peers).

TF1's documented behaviour is the oracle: the server is job "localhost" task 0, a session on its target runs
the graph, and the server's variables outlive a session and are seen, by name, by every session on it.
"""
import numpy as np
import pytest

import trainer as tg


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def test_a_local_server_is_one_localhost_task():
    server = tg.train.Server.create_local_server()
    assert isinstance(server, tg.train.Server)
    assert server.cluster_spec.as_dict() == {"localhost": [server.target.split("://")[1]]}
    assert (server.job_name, server.task_index) == ("localhost", 0)
    assert tg.train.Server.create_local_server().target != server.target  # TF1: each its own port


def test_a_session_on_the_target_runs_the_graph():
    server = tg.train.Server.create_local_server()
    x = tg.placeholder(tg.float32)
    with tg.Session(server.target) as sess:
        assert sess.run(x * 2.0, {x: 21.0}) == 42.0
        assert sess.run(tg.constant("hi")) == b"hi"


def test_variables_outlive_a_session_and_are_shared_by_name():
    server = tg.train.Server.create_local_server()
    v = tg.Variable(3.0, name="v")
    with tg.Session(server.target) as sess:
        sess.run(v.initializer)
        sess.run(v.assign_add(1.0))
    with tg.Session(server.target) as sess:  # TF1: the server keeps v after the first session closed
        assert sess.run(v) == 4.0
    with tg.Graph().as_default(), tg.Session(server.target) as sess:  # another graph, the same name
        assert sess.run(tg.Variable(0.0, name="v")) == 4.0
    with tg.Session() as sess, pytest.raises(tg.errors.FailedPreconditionError, match="'v'"):
        sess.run(v)  # a plain session has variables of its own


def test_servers_do_not_share_variables():
    first, second = tg.train.Server.create_local_server(), tg.train.Server.create_local_server()
    v = tg.Variable(np.arange(3.0), name="w")
    with tg.Session(first.target) as sess:
        sess.run(v.initializer)
    with tg.Session(second.target) as sess, pytest.raises(tg.errors.FailedPreconditionError,
                                                          match="uninitialized value 'w'"):
        sess.run(v)


def test_an_unknown_local_target_and_join_say_what_to_do():
    with pytest.raises(ValueError, match="names no local server"):
        tg.Session("local://localhost:99999")
    with pytest.raises(RuntimeError, match="would wait forever"):
        tg.train.Server.create_local_server().join()
