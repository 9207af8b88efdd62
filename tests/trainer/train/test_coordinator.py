"""tg.train.Coordinator and LooperThread: stopping threads together and reporting their first error."""
import threading
import time

import pytest

import trainer as tf


def test_threads_stop_together_and_join_raises_the_first_error():
    coord = tf.train.Coordinator()
    stopped = []

    def worker(i):
        with coord.stop_on_exception():
            while not coord.should_stop():
                if i == 2:
                    raise ValueError(f"worker {i} failed")
                time.sleep(0.001)
            stopped.append(i)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    with pytest.raises(ValueError, match="worker 2 failed"):
        coord.join(threads)
    assert sorted(stopped) == [0, 1, 3] and coord.joined
    with pytest.raises(ValueError, match="late"):  # after join(), a reported error is raised at once
        coord.request_stop(ValueError("late"))


def test_out_of_range_is_a_clean_stop_and_clear_stop_resets():
    coord = tf.train.Coordinator()
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "done"))
    assert coord.should_stop() and coord.wait_for_stop(0)
    coord.join([])
    coord.clear_stop()
    assert not coord.should_stop() and not coord.wait_for_stop(0.001)
    strict = tf.train.Coordinator(clean_stop_exception_types=[])
    strict.request_stop(tf.errors.OutOfRangeError(None, None, "done"))
    with pytest.raises(tf.errors.OutOfRangeError):
        strict.raise_requested_exception()


def test_join_names_threads_that_do_not_stop():
    coord = tf.train.Coordinator()
    release = threading.Event()
    stuck = threading.Thread(target=release.wait, name="stuck-reader")
    stuck.start()
    coord.request_stop()
    try:
        with pytest.raises(RuntimeError, match="threads still running: stuck-reader"):
            coord.join([stuck], stop_grace_period_secs=0.01)
    finally:
        release.set()


def test_looper_thread_calls_target_every_interval():
    coord = tf.train.Coordinator()
    times = []
    start = time.monotonic()
    looper = tf.train.LooperThread.loop(coord, 0.02, times.append, args=(None,))
    while len(times) < 3 and time.monotonic() < start + 30:  # a busy machine may hold the thread back
        time.sleep(0.005)
    coord.request_stop()
    coord.join()
    elapsed = time.monotonic() - start
    # first call at once, then every 0.02 s: never more often than that, however long the wait took
    assert not looper.is_alive() and 3 <= len(times) <= elapsed / 0.02 + 2
    with pytest.raises(ValueError, match="'coord' must be a tg.train.Coordinator"):
        tf.train.LooperThread(None, 1)


def test_errors_are_op_errors_with_tf1_codes():
    e = tf.errors.AbortedError(None, None, "preempted")
    assert isinstance(e, tf.errors.OpError) and e.error_code == 10 and e.message == "preempted" and str(e) == "preempted"
    assert tf.errors.OutOfRangeError(None, None, "x").error_code == 11
    assert isinstance(tf.errors.FailedPreconditionError("uninitialized"), (tf.errors.OpError, RuntimeError))
