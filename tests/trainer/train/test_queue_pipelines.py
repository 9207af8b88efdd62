"""Queue-based input pipelines against real TensorFlow's runs of them (fixtures/tf_queues.json, recorded by
scripts/record_tf_queues.py from queue_pipelines.py), and what TF1 does when a pipeline waits: a deadline, a
coordinator's stop, a closed session, Ctrl-C."""
import json
import pathlib
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import trainer as tg
from tests.trainer.train import queue_pipelines

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "tf_queues.json").read_text())["pipelines"]
SHUFFLED = {"shuffled_slice"}  # the seeded-RNG streams are not TF's: compare what they hold, not their order
ROOT = pathlib.Path(__file__).resolve().parents[3]
STUCK_MS = 20000  # a wait that should end at once fails the test after this long instead of hanging it


@pytest.mark.parametrize("name", sorted(set(queue_pipelines.PIPELINES) - SHUFFLED))
def test_a_pipeline_dequeues_what_tensorflow_dequeues(name):
    assert queue_pipelines.drain(tg, name) == FIXTURE[name]


@pytest.mark.parametrize("name", sorted(SHUFFLED))
def test_a_shuffled_pipeline_holds_tensorflows_values_in_tensorflows_batches(name):
    mine, theirs = queue_pipelines.drain(tg, name), FIXTURE[name]
    assert {k: v for k, v in mine.items() if k != "runs"} == {k: v for k, v in theirs.items() if k != "runs"}
    assert [r["shape"] for r in mine["runs"]] == [r["shape"] for r in theirs["runs"]]
    values = sorted(v for r in mine["runs"] for v in r["value"])
    assert values == sorted(v for r in theirs["runs"] for v in r["value"])


def _starved():
    """A batch whose producer never produces: its dequeue waits forever unless something ends it."""
    source = tg.FIFOQueue(4, [tg.float32], shapes=[[]])
    tg.train.add_queue_runner(tg.train.QueueRunner(source, [source.enqueue(source.dequeue() + 1.0)]))
    return tg.train.batch([source.dequeue()], batch_size=2)


def test_a_waiting_dequeue_ends_at_the_runs_deadline():
    with tg.Graph().as_default():
        batch = _starved()
        with tg.Session() as sess:
            coord = tg.train.Coordinator()
            threads = tg.train.start_queue_runners(sess, coord)
            start = time.monotonic()
            guard = threading.Timer(STUCK_MS / 1000, coord.request_stop)  # without the deadline: fail, not hang
            guard.start()
            with pytest.raises(tg.errors.DeadlineExceededError):
                sess.run(batch, options=tg.RunOptions(timeout_in_ms=200))
            guard.cancel()
            assert time.monotonic() - start < 5
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=5)


def test_the_sessions_operation_timeout_bounds_every_run():
    with tg.Graph().as_default():
        queue = tg.FIFOQueue(2, [tg.int32], shapes=[[]])
        with tg.Session(config=tg.ConfigProto(operation_timeout_in_ms=100)) as sess:
            sess.run(queue.size())
            guard = threading.Timer(STUCK_MS / 1000, sess.close)  # without the timeout: fail, not hang
            guard.start()
            with pytest.raises(tg.errors.DeadlineExceededError, match="fifo_queue"):
                sess.run(queue.dequeue())
            guard.cancel()


def test_request_stop_ends_a_dequeue_waiting_in_another_thread():
    with tg.Graph().as_default():
        batch = _starved()
        with tg.Session() as sess:
            coord = tg.train.Coordinator()
            threads = tg.train.start_queue_runners(sess, coord)
            threading.Timer(0.2, coord.request_stop).start()
            with pytest.raises(tg.errors.OutOfRangeError, match="closed"):
                sess.run(batch, options=tg.RunOptions(timeout_in_ms=STUCK_MS))
            coord.join(threads, stop_grace_period_secs=5)
            assert not any(t.is_alive() for t in threads)


def test_closing_the_session_cancels_its_waiting_ops():
    with tg.Graph().as_default():
        queue = tg.FIFOQueue(2, [tg.int32], shapes=[[]])
        sess = tg.Session()
        errors = []

        def wait():
            try:
                sess.run(queue.dequeue())
            except tg.errors.CancelledError as e:
                errors.append(e)
        waiter = threading.Thread(target=wait)
        sess.run(queue.size())  # the queue exists in the session before the waiter looks for it
        waiter.start()
        time.sleep(1.0)  # time for the waiter to be waiting, even on a loaded machine
        sess.close()
        waiter.join(5)
        assert not waiter.is_alive() and len(errors) == 1


def test_an_error_in_a_queue_runner_reaches_coordinator_join():
    with tg.Graph().as_default():
        rows = tg.placeholder_with_default(tg.constant([1.0, 2.0]), [None])
        with tg.control_dependencies([tg.debugging.assert_less(rows, 1.5, message="a row too large")]):
            checked = tg.identity(rows)
        batch = tg.train.batch([checked], batch_size=2, enqueue_many=True)
        with tg.Session() as sess:
            coord = tg.train.Coordinator()
            threads = tg.train.start_queue_runners(sess, coord)
            with pytest.raises(tg.errors.OutOfRangeError):
                sess.run(batch)  # the runner's failure stopped the coordinator, which closed the queue
            with pytest.raises(tg.errors.InvalidArgumentError, match="a row too large"):
                coord.join(threads, stop_grace_period_secs=5)


def test_monitored_training_session_starts_the_queue_runners_and_stops_at_the_end_of_the_data():
    with tg.Graph().as_default():
        (row,) = tg.train.slice_input_producer([np.arange(5, dtype=np.int32)], num_epochs=1, shuffle=False)
        batch = tg.train.batch([row], batch_size=2, allow_smaller_final_batch=True)
        seen = []
        with tg.train.MonitoredTrainingSession(config=tg.ConfigProto(operation_timeout_in_ms=STUCK_MS)) as sess:
            while not sess.should_stop():
                seen.append(sess.run(batch).tolist())
        assert seen == [[0, 1], [2, 3], [4]]


def test_ctrl_c_interrupts_a_waiting_dequeue():
    program = textwrap.dedent("""
        import sys, trainer as tg
        queue = tg.FIFOQueue(2, [tg.int32], shapes=[[]])
        with tg.Session() as sess:
            print("waiting", flush=True)
            try:
                sess.run(queue.dequeue())
            except KeyboardInterrupt:
                print("interrupted", flush=True)
                sys.exit(3)
    """)
    child = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stdout.readline().strip() == "waiting"
    time.sleep(1.0)  # time for the child to be waiting in the dequeue
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    assert (child.returncode, out.strip()) == (3, "interrupted")


def test_limit_epochs_counts_in_a_local_variable():
    with tg.Graph().as_default():
        limited = tg.train.limit_epochs(tg.constant([1, 2]), num_epochs=2)
        assert [v.name for v in tg.local_variables()] == ["limit_epochs/epochs:0"]
        with tg.Session() as sess:
            sess.run(tg.local_variables_initializer())
            assert sess.run(limited).tolist() == [1, 2] and sess.run(limited).tolist() == [1, 2]
            with pytest.raises(tg.errors.OutOfRangeError, match="Reached limit of 2"):
                sess.run(limited)
        with pytest.raises(ValueError, match="num_epochs must be > 0"):
            tg.train.limit_epochs(tg.constant(1), num_epochs=0)


def test_supervisor_starts_the_queue_runners_and_stop_ends_them(tmp_path):
    with tg.Graph().as_default():
        (row,) = tg.train.slice_input_producer([np.arange(6, dtype=np.int32)], shuffle=False)
        batch = tg.train.batch([row], batch_size=4)
        sv = tg.train.Supervisor(logdir=str(tmp_path), save_model_secs=0, save_summaries_secs=0)
        with sv.managed_session(config=tg.ConfigProto(operation_timeout_in_ms=STUCK_MS)) as sess:
            seen = [sess.run(batch).tolist() for _ in range(3)]
        assert seen == [[0, 1, 2, 3], [4, 5, 0, 1], [2, 3, 4, 5]]
