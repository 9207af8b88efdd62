"""tg.train.Supervisor: the seed notebook's program (cells 4-15..4-17) on one process, resuming from logdir."""
import os
import time

import numpy as np
import pytest

import trainer as tf

RNG = np.random.RandomState(7)
TRAIN_X = np.linspace(-1, 1, 100).astype(np.float32)
TRAIN_Y = (2 * TRAIN_X + RNG.randn(*TRAIN_X.shape) * 0.3).astype(np.float32)
LEARNING_RATE = 0.01


def numpy_sgd(w, b, epochs, start_epoch=0):
    """The oracle: the seed's per-sample SGD on (z - y)^2, in float64."""
    for _ in range(start_epoch, epochs):
        for x, y in zip(TRAIN_X.astype(np.float64), TRAIN_Y.astype(np.float64)):
            r = y - (x * w + b)
            w, b = w + LEARNING_RATE * 2 * r * x, b + LEARNING_RATE * 2 * r
    return w, b


def seed_program(logdir, training_epochs, **supervisor_args):
    """The seed's Supervisor program, as written for TF1 (one worker, the chief)."""
    with tf.Graph().as_default():
        X = tf.placeholder("float")
        Y = tf.placeholder("float")
        W = tf.Variable(tf.truncated_normal([1]), name="weight")
        b = tf.Variable(tf.truncated_normal([1]), name="bias")
        global_step = tf.train.get_or_create_global_step()
        z = tf.multiply(X, W) + b
        tf.summary.histogram("z", z)
        cost = tf.reduce_mean(tf.square(Y - z))
        tf.summary.scalar("loss_function", cost)
        optimizer = tf.train.GradientDescentOptimizer(LEARNING_RATE).minimize(cost, global_step=global_step)
        saver = tf.train.Saver(max_to_keep=1)
        merged_summary_op = tf.summary.merge_all()
        init = tf.global_variables_initializer()

        sv = tf.train.Supervisor(is_chief=True, logdir=logdir, init_op=init, summary_op=None, saver=saver,
                                 global_step=global_step, **supervisor_args)
        with sv.managed_session("") as sess:
            start_step = global_step.eval(session=sess)
            start_values = sess.run([W, b])
            for epoch in range(start_step // len(TRAIN_X), training_epochs):
                for (x, y) in zip(TRAIN_X, TRAIN_Y):
                    _, step = sess.run([optimizer, global_step], feed_dict={X: x, Y: y})
                    summary_str = sess.run(merged_summary_op, feed_dict={X: x, Y: y})
                    sv.summary_computed(sess, summary_str, global_step=step)
            end_values = sess.run([W, b])
            end_step = global_step.eval(session=sess)
            # As the seed does: TF1's Supervisor saves only from its timer thread, not when it stops.
            manual = sv.saver.save(sess, os.path.join(logdir, "sv.cpk"), global_step=end_step)
        sv.stop()
        return dict(start_step=int(start_step), start=[float(v[0]) for v in start_values], end_step=int(end_step),
                    end=[float(v[0]) for v in end_values], manual=manual)


def events(logdir):
    names = sorted(f for f in os.listdir(logdir) if f.startswith("events.out.tfevents"))
    return [e for f in names for e in tf.train.summary_iterator(os.path.join(logdir, f))]


# The seed calls sv.stop() again after managed_session stopped it: TF1 then warns about the closed FileWriter too.
@pytest.mark.filterwarnings("ignore:Attempting to use a closed FileWriter")
def test_seed_supervisor_program_learns_and_resumes(tmp_path):
    logdir = str(tmp_path)
    first = seed_program(logdir, 3, save_model_secs=5)
    assert first["start_step"] == 0 and first["end_step"] == 300
    w, b = numpy_sgd(*first["start"], epochs=3)
    assert first["end"] == pytest.approx([w, b], abs=1e-4)
    # The timer thread may also have saved step 300 after the program's own save: both hold the same values.
    assert tf.train.latest_checkpoint(logdir) in (os.path.join(logdir, "sv.cpk-300"),
                                                  os.path.join(logdir, "model.ckpt-300"))
    assert first["manual"] == os.path.join(logdir, "sv.cpk-300")

    second = seed_program(logdir, 8, save_model_secs=5)  # a new process would do the same: restore from logdir
    assert second["start_step"] == 300 and second["start"] == pytest.approx(first["end"], abs=1e-7)
    w, b = numpy_sgd(*first["start"], epochs=8)
    assert second["end"] == pytest.approx([w, b], abs=1e-4)
    assert abs(second["end"][0] - 2) < 0.1 and abs(second["end"][1]) < 0.1  # the data's W=2, b=0

    losses = [(e.step, v.tag) for e in events(logdir) if e.HasField("summary") for v in e.summary.value]
    assert [s for s, t in losses if t == "loss_function"] == list(range(1, 801))
    assert {t for _, t in losses} >= {"loss_function", "z", "global_step/sec"}
    logs = [e.session_log.status for e in events(logdir) if e.HasField("session_log")]
    assert logs.count(tf.SessionLog.START) == 2 and logs.count(tf.SessionLog.STOP) == 2


def test_checkpoint_service_saves_periodically_from_its_thread(tmp_path):
    with tf.Graph().as_default():
        v = tf.Variable(0.0, name="v")
        step = tf.train.get_or_create_global_step()
        train = tf.group(v.assign_add(1.0), step.assign_add(1))
        sv = tf.train.Supervisor(logdir=str(tmp_path), save_model_secs=0.05, save_summaries_secs=None)
        with sv.managed_session() as sess:
            # train until the timer has saved three different checkpoints (a loaded machine may need longer
            # than 0.05 s a save: wait for the saves, not for a fixed time)
            seen, deadline = {None}, time.time() + 30
            while len(seen) < 4 and time.time() < deadline:
                sess.run(train)
                seen.add(tf.train.latest_checkpoint(str(tmp_path)))
                time.sleep(0.002)
            final = sess.run(step)
            # training stopped: the timer's next save holds the final state (stop() itself does not save)
            while not str(tf.train.latest_checkpoint(str(tmp_path))).endswith(f"-{final}") \
                    and time.time() < deadline:
                time.sleep(0.01)
    saves = [e for e in events(tmp_path) if e.HasField("session_log")
             and e.session_log.status == tf.SessionLog.CHECKPOINT]
    assert len(saves) >= 3  # once at the start, then every 0.05 s
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith(f"model.ckpt-{final}")
    assert tf.train.load_variable(str(tmp_path), "v") == final


def test_supervisor_defaults_and_errors(tmp_path):
    with tf.Graph().as_default() as g:
        w = tf.Variable(1.0, name="w")
        step = tf.Variable(0, name="global_step", dtype=tf.int64, trainable=False)
        sv = tf.train.Supervisor(logdir=str(tmp_path), save_model_secs=0, save_summaries_secs=0)
        assert sv.global_step is step and sv.is_chief and isinstance(sv.saver, tf.train.Saver)
        assert sv.init_op is g.get_collection(tf.GraphKeys.INIT_OP)[0]
        assert sv.summary_op is None and sv.save_path == os.path.join(str(tmp_path), "model.ckpt")
        assert g.finalized
        with sv.managed_session() as sess:
            assert sess.run(w) == 1.0
            sv.summary_computed(sess, tf.Summary(value=[tf.Summary.Value(tag="t", simple_value=1.5)]))
        assert not os.path.exists(os.path.join(str(tmp_path), "checkpoint"))  # save_model_secs=0: no service
        with pytest.raises(ZeroDivisionError):
            with sv.managed_session() as sess:
                1 / 0
        with sv.managed_session() as sess:
            raise tf.errors.OutOfRangeError(None, None, "input exhausted")  # a clean stop
    scalars = [(e.step, v.simple_value) for e in events(tmp_path) if e.HasField("summary") for v in e.summary.value]
    assert scalars == [(0, 1.5)]
    with tf.Graph().as_default():
        tf.Variable(1.0)
        worker = tf.train.Supervisor(is_chief=False, logdir=str(tmp_path))
        assert worker.summary_writer is None
        with pytest.raises(RuntimeError, match="requires a summary writer"):
            worker.summary_computed(None, b"")
        with pytest.raises(RuntimeError, match="Only chief supervisor can start standard services"):
            worker.start_standard_services(None)


def test_supervisor_loop_and_stop(tmp_path):
    with tf.Graph().as_default():
        tf.Variable(1.0)
        sv = tf.train.Supervisor(logdir=None)
        calls = []
        with sv.managed_session() as sess:
            looper = sv.loop(0.01, calls.append, args=(1,))
            while len(calls) < 3:
                time.sleep(0.005)
            assert not sv.should_stop()
            sv.request_stop()
            assert sv.should_stop()
        assert not looper.is_alive() and len(calls) >= 3


def test_basic_train_loop_steps_until_the_supervisor_stops_and_retries_after_an_abort():
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        increment = step.assign_add(1)
        sv = tf.train.Supervisor(logdir=None, global_step=step)
        seen, aborted = [], []

        def train_step(sess, scale, offset=0):
            value = sess.run(increment)
            seen.append(value * scale + offset)
            if value == 2 and not aborted:
                aborted.append(True)
                raise tf.errors.AbortedError(None, None, "a worker restarted")
            if value >= 4:
                sv.request_stop()

        tf.train.basic_train_loop(sv, train_step, args=[10], kwargs={"offset": 1})
    # the abort opened a new session, whose initialized step counts from 0 again
    assert seen == [11, 21, 11, 21, 31, 41]
