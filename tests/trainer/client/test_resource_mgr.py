"""session.resources, TF1's ResourceMgr: get-or-create by (container, name), and the four kinds of op state that
live in it (random streams, Print's counts, numpy_input_fn's queues, tf.data iterators) are per session and go
away when the session closes."""
import numpy as np
import pytest

import trainer as tg
from trainer.client.resource_mgr import ResourceMgr
from trainer.client.session import RNG_CONTAINER
from trainer.data.runtime import ITERATORS
from trainer.ops.queue_state import QUEUES


def test_lookup_or_create_creates_once_per_container_and_name():
    resources, made = ResourceMgr(), []

    def create():
        made.append(object())
        return made[-1]

    first = resources.lookup_or_create("queue", "q", create)
    assert resources.lookup_or_create("queue", "q", create) is first and len(made) == 1
    assert resources.lookup_or_create("reader", "q", create) is not first  # another container, another resource
    assert resources.lookup("queue", "q") is first and resources.lookup("queue", "missing", 7) == 7
    assert resources.items("queue") == [("q", first)]
    resources.cleanup("queue")
    assert resources.lookup("queue", "q") is None and resources.items("reader") == [("q", made[1])]
    resources.clear()
    assert resources.items("reader") == []


def test_a_create_may_ask_for_another_resource():
    resources = ResourceMgr()
    outer = resources.lookup_or_create("a", 1, lambda: ("outer", resources.lookup_or_create("b", 2, list)))
    assert outer[1] is resources.lookup("b", 2)


def two_sessions(graph):
    return tg.Session(graph=graph), tg.Session(graph=graph)


def test_random_streams_are_per_session_and_go_away_with_close():
    graph = tg.Graph()
    with graph.as_default():
        x = tg.random_uniform([3], seed=1)
    first, second = two_sessions(graph)
    a = first.run(x)
    np.testing.assert_array_equal(second.run(x), a)  # second's stream starts afresh
    assert not np.array_equal(first.run(x), a)  # first's stream went on
    assert [op.name for op, _ in first.resources.items(RNG_CONTAINER)] == [x.op.name]
    first.close()
    assert first.random_state() == {} and second.random_state().keys() == {x.op.name}
    second.close()


def test_print_counts_are_per_session_and_go_away_with_close(capfd):
    graph = tg.Graph()
    with graph.as_default():
        y = tg.Print(tg.constant(1.0), [tg.constant(5)], message="m", first_n=1)
    first, second = two_sessions(graph)
    for _ in range(2):
        first.run(y)
        second.run(y)
    assert capfd.readouterr().err == "m[5]\nm[5]\n"
    assert first.resources.lookup("Print", y.op) is not None
    first.close()
    assert first.resources.lookup("Print", y.op) is None and second.resources.lookup("Print", y.op) is not None
    second.close()


def test_numpy_input_queues_are_per_session_and_go_away_with_close():
    graph = tg.Graph()
    with graph.as_default():
        features = tg.estimator.inputs.numpy_input_fn(np.arange(4), batch_size=2, num_epochs=1, shuffle=False)()
    first, second = two_sessions(graph)
    coord = tg.train.Coordinator()
    threads = [t for sess in (first, second) for t in tg.train.start_queue_runners(sess, coord)]
    assert list(first.run(features)) == [0, 1]
    assert list(second.run(features)) == [0, 1]
    assert list(first.run(features)) == [2, 3]
    with pytest.raises(tg.errors.OutOfRangeError):
        first.run(features)
    assert list(second.run(features)) == [2, 3]
    coord.request_stop()
    coord.join(threads)
    assert len(first.resources.items(QUEUES)) == 1
    first.close()
    assert first.resources.items(QUEUES) == [] and len(second.resources.items(QUEUES)) == 1
    second.close()


def test_iterators_are_per_session_and_go_away_with_close():
    graph = tg.Graph()
    with graph.as_default():
        element = tg.data.Dataset.range(3).make_one_shot_iterator().get_next()
    first, second = two_sessions(graph)
    assert [first.run(element), first.run(element)] == [0, 1]
    assert [second.run(element), first.run(element), second.run(element)] == [0, 2, 1]
    assert len(first.resources.items(ITERATORS)) == 1
    first.close()
    assert first.resources.items(ITERATORS) == [] and len(second.resources.items(ITERATORS)) == 1
    second.close()
