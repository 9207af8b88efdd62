"""The queues' own ops: argument checks, RandomShuffleQueue's floor and seed (what queues dequeue in order, and their
names and shapes, are compared with TensorFlow's runs in tests/trainer/train/test_queue_pipelines.py)."""
import pytest

import trainer as tg


def test_enqueue_checks_the_queues_components():
    with tg.Graph().as_default():
        queue = tg.FIFOQueue(3, [tg.int32, tg.float32], shapes=[[2], []])
        with pytest.raises(ValueError, match="2 component"):
            queue.enqueue([[1, 2]])
        with pytest.raises(ValueError):
            queue.enqueue([[1, 2, 3], 1.0])
        with pytest.raises(ValueError, match="fully defined"):
            tg.FIFOQueue(3, [tg.int32], shapes=[[None]])
        named = tg.FIFOQueue(3, [tg.int32, tg.float32], shapes=[[], []], names=["a", "b"])
        with tg.Session() as sess:
            sess.run(named.enqueue({"a": 1, "b": 2.5}))
            assert sess.run(named.dequeue()) == {"a": 1, "b": 2.5}


def test_a_shuffle_queue_keeps_min_after_dequeue_until_closed():
    with tg.Graph().as_default():
        queue = tg.RandomShuffleQueue(10, min_after_dequeue=3, dtypes=[tg.int32], shapes=[[]], seed=1)
        with tg.Session(config=tg.ConfigProto(operation_timeout_in_ms=100)) as sess:
            sess.run(queue.enqueue_many([[1, 2, 3, 4]]))
            first = sess.run(queue.dequeue())
            with pytest.raises(tg.errors.DeadlineExceededError):
                sess.run(queue.dequeue())  # three left: the floor holds them back
            sess.run(queue.close())
            rest = sess.run(queue.dequeue_many(3))
        assert sorted([first] + rest.tolist()) == [1, 2, 3, 4]


def test_a_seeded_shuffle_queue_repeats_its_order_in_a_new_session():
    with tg.Graph().as_default():
        queue = tg.RandomShuffleQueue(20, min_after_dequeue=0, dtypes=[tg.int32], shapes=[[]], seed=7)
        fill, take = queue.enqueue_many([list(range(20))]), queue.dequeue_many(20)
        orders = []
        for _ in range(2):
            with tg.Session() as sess:
                sess.run(fill)
                orders.append(sess.run(take).tolist())
        assert orders[0] == orders[1] and orders[0] != list(range(20)) and sorted(orders[0]) == list(range(20))
