"""TF1's SessionRunHooks (tg.train.*Hook) under a MonitoredSession: trigger steps, logs, files written."""
import logging
import os
import threading
import time

import numpy as np
import pytest

import trainer as tf

XS = np.linspace(-1, 1, 100).astype(np.float32)
YS = (2 * XS + 0.3 * np.random.RandomState(0).randn(100)).astype(np.float32)


def linear_model(lr=0.1):
    """y = w*x + b trained by SGD on the seeds' data; returns the graph's pieces as a dict."""
    x = tf.placeholder(tf.float32, [None], name="x")
    y = tf.placeholder(tf.float32, [None], name="y")
    w = tf.Variable(tf.zeros([1]), name="w")
    b = tf.Variable(tf.zeros([1]), name="b")
    step = tf.train.get_or_create_global_step()
    loss = tf.reduce_mean(tf.square(y - (x * w + b)), name="loss")
    train = tf.train.GradientDescentOptimizer(lr).minimize(loss, global_step=step)
    return dict(x=x, y=y, w=w, b=b, step=step, loss=loss, train=train, feed={x: XS, y: YS})


def train_until_stop(sess, m):
    steps = 0
    while not sess.should_stop():
        sess.run(m["train"], m["feed"])
        steps += 1
    return steps


def events(logdir):
    tf.summary.FileWriterCache.get(str(logdir)).flush()  # the hooks' shared writer flushes every 120 s
    files = sorted(f for f in os.listdir(logdir) if f.startswith("events.out.tfevents"))
    return [e for f in files for e in tf.train.summary_iterator(os.path.join(logdir, f))]


@pytest.fixture
def ringflow_log(caplog):
    caplog.set_level(logging.INFO, logger="ringflow")
    return caplog


def test_second_or_step_timer_triggers_first_then_every_n_steps():
    timer = tf.train.SecondOrStepTimer(every_steps=3)
    assert timer.should_trigger_for_step(5)
    assert timer.update_last_triggered_step(5) == (None, None)
    assert [s for s in range(5, 12) if timer.should_trigger_for_step(s)] == [8, 9, 10, 11]
    secs, steps = timer.update_last_triggered_step(8)
    assert steps == 3 and 0 <= secs < 5
    assert timer.last_triggered_step() == 8
    with pytest.raises(ValueError, match="Exactly one of every_steps and every_secs"):
        tf.train.SecondOrStepTimer(every_secs=1, every_steps=1)


def test_second_or_step_timer_by_seconds():
    timer = tf.train.SecondOrStepTimer(every_secs=0.05)
    timer.update_last_triggered_step(0)
    assert not timer.should_trigger_for_step(1)
    time.sleep(0.06)
    assert timer.should_trigger_for_step(1) and not timer.should_trigger_for_step(0)


@pytest.mark.parametrize("kwargs, expected_steps", [(dict(num_steps=7), 7), (dict(last_step=5), 5)])
def test_stop_at_step_hook(kwargs, expected_steps):
    with tf.Graph().as_default():
        m = linear_model()
        with tf.train.SingularMonitoredSession(hooks=[tf.train.StopAtStepHook(**kwargs)]) as sess:
            assert train_until_stop(sess, m) == expected_steps
            assert sess.raw_session().run(m["step"]) == expected_steps


def test_stop_at_step_hook_argument_errors():
    with pytest.raises(ValueError, match="One of num_steps or last_step"):
        tf.train.StopAtStepHook()
    with pytest.raises(ValueError, match="Only one of num_steps or last_step.*num_steps=3"):
        tf.train.StopAtStepHook(num_steps=3, last_step=4)
    with tf.Graph().as_default():
        tf.Variable(1.0)
        with pytest.raises(RuntimeError, match="Global step should be created to use StopAtStepHook"):
            tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(num_steps=1)])


def test_logging_tensor_hook_every_n_iter_and_at_end(ringflow_log):
    with tf.Graph().as_default():
        m = linear_model()
        hook = tf.train.LoggingTensorHook({"step": m["step"], "loss": m["loss"]}, every_n_iter=2)
        at_end = tf.train.LoggingTensorHook([m["w"]], at_end=True)  # end() runs without feeds: no loss here
        final = tf.train.FinalOpsHook(m["w"])
        with tf.train.MonitoredSession(hooks=[hook, at_end, final, tf.train.StopAtStepHook(last_step=5)]) as sess:
            losses = []
            while not sess.should_stop():
                losses.append(sess.run([m["train"], m["loss"]], m["feed"])[1])
    messages = [r.getMessage() for r in ringflow_log.records]
    lines = [msg for msg in messages if msg.startswith("loss = ")]
    assert len(lines) == 3  # iterations 0, 2, 4
    # Tags in sorted order; the first has no elapsed time, the periodic ones do.
    assert lines[0] == "loss = %s, step = 1" % losses[0]
    assert lines[1].startswith("loss = %s, step = 3 (" % losses[2]) and lines[1].endswith(" sec)")
    assert lines[2].startswith("loss = %s, step = 5 (" % losses[4])
    with np.printoptions(suppress=True):
        assert [msg for msg in messages if msg.startswith(str(m["w"]))] == [  # TF1 tags a Tensor by its str()
            "%s = %s" % (m["w"], final.final_ops_values)]


def test_logging_tensor_hook_names_and_formatter(ringflow_log):
    with tf.Graph().as_default():
        m = linear_model()
        hook = tf.train.LoggingTensorHook(["loss"], every_n_iter=1,
                                          formatter=lambda values: f"custom {sorted(values)}")
        with tf.train.MonitoredSession(hooks=[hook]) as sess:
            sess.run(m["train"], m["feed"])
    assert "custom ['loss']" in [r.getMessage() for r in ringflow_log.records]
    with pytest.raises(ValueError, match="exactly one of every_n_iter and every_n_secs"):
        tf.train.LoggingTensorHook(["loss"])
    with pytest.raises(ValueError, match="invalid every_n_iter=0"):
        tf.train.LoggingTensorHook(["loss"], every_n_iter=0)


def diverging_model():
    m = linear_model(lr=5.0)  # far past 2 / curvature: the loss grows to inf, then NaN
    return m


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # overflow on the way to NaN
def test_nan_tensor_hook_raises_on_a_diverging_run():
    with tf.Graph().as_default():
        m = diverging_model()
        with pytest.raises(tf.train.NanLossDuringTrainingError, match="NaN loss during training"):
            with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(m["loss"])]) as sess:
                for _ in range(1000):
                    sess.run(m["train"], m["feed"])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_nan_tensor_hook_can_stop_instead(ringflow_log):
    with tf.Graph().as_default():
        m = diverging_model()
        with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(m["loss"], fail_on_nan_loss=False)]) as sess:
            losses = []
            while not sess.should_stop():
                losses.append(sess.run([m["train"], m["loss"]], m["feed"])[1])
    assert np.isnan(losses[-1]) and not np.isnan(losses[:-1]).any() and 1 < len(losses) < 1000
    assert "Model diverged with loss = NaN." in [r.getMessage() for r in ringflow_log.records]


class Recorder(tf.train.CheckpointSaverListener):
    def __init__(self):
        self.calls = []

    def begin(self):
        self.calls.append(("begin",))

    def before_save(self, session, step):
        self.calls.append(("before", step))

    def after_save(self, session, step):
        self.calls.append(("after", step))

    def end(self, session, step):
        self.calls.append(("end", step))


def test_checkpoint_saver_hook_saves_at_start_every_n_steps_and_end(tmp_path):
    listener = Recorder()
    with tf.Graph().as_default():
        m = linear_model()
        saver = tf.train.Saver(max_to_keep=10)
        hooks = [tf.train.CheckpointSaverHook(str(tmp_path), save_steps=3, saver=saver, listeners=[listener]),
                 tf.train.StopAtStepHook(last_step=10)]
        with tf.train.SingularMonitoredSession(hooks=hooks) as sess:
            train_until_stop(sess, m)
            w10 = sess.raw_session().run(m["w"])
    saved = [0, 3, 6, 9, 10]
    assert tf.train.get_checkpoint_state(str(tmp_path)).all_model_checkpoint_paths == [
        str(tmp_path / f"model.ckpt-{s}") for s in saved]
    assert listener.calls == [("begin",)] + [c for s in saved for c in (("before", s), ("after", s))] + [("end", 10)]
    assert tf.train.load_variable(str(tmp_path / "model.ckpt-10"), "w") == pytest.approx(w10)
    logs = [e.session_log for e in events(tmp_path) if e.HasField("session_log")]
    assert [log.status for log in logs] == [tf.SessionLog.CHECKPOINT] * 5


def test_checkpoint_listener_can_stop_training(tmp_path):
    class StopAfterSecond(tf.train.CheckpointSaverListener):
        def after_save(self, session, step):
            return step >= 2

    with tf.Graph().as_default():
        m = linear_model()
        hook = tf.train.CheckpointSaverHook(str(tmp_path), save_steps=2, listeners=[StopAfterSecond()])
        with tf.train.MonitoredSession(hooks=[hook]) as sess:
            assert train_until_stop(sess, m) == 2
    with pytest.raises(ValueError, match="You cannot provide both saver and scaffold"):
        tf.train.CheckpointSaverHook(str(tmp_path), save_steps=1, saver=object(), scaffold=object())


def test_summary_saver_hook_writes_the_summary_op_every_n_steps(tmp_path):
    with tf.Graph().as_default():
        m = linear_model()
        summary = tf.summary.scalar("train_loss", m["loss"])
        hooks = [tf.train.SummarySaverHook(save_steps=5, output_dir=str(tmp_path), summary_op=summary),
                 tf.train.StopAtStepHook(last_step=12)]
        losses = {}
        with tf.train.MonitoredSession(hooks=hooks) as sess:
            while not sess.should_stop():
                loss = sess.run([m["train"], m["loss"]], m["feed"])[1]  # the loss this step trained on
                losses[len(losses) + 1] = loss  # keyed by the global step after the run
    written = {e.step: v.simple_value for e in events(tmp_path) if e.HasField("summary") for v in e.summary.value
               if v.tag == "train_loss"}
    assert sorted(written) == [1, 6, 11]  # TF1: the first run, then every 5 steps, at the step after the run
    for step, value in written.items():
        assert value == pytest.approx(losses[step], rel=1e-6)
    starts = [e for e in events(tmp_path) if e.HasField("session_log")]
    assert starts and starts[0].session_log.status == tf.SessionLog.START


def test_summary_saver_hook_needs_exactly_one_source():
    with pytest.raises(ValueError, match="Exactly one of scaffold or summary_op"):
        tf.train.SummarySaverHook(save_steps=1)


def test_step_counter_hook_records_steps_per_second(tmp_path):
    with tf.Graph().as_default():
        m = linear_model()
        hooks = [tf.train.StepCounterHook(every_n_steps=5, output_dir=str(tmp_path)),
                 tf.train.StopAtStepHook(last_step=12)]
        with tf.train.MonitoredSession(hooks=hooks) as sess:
            train_until_stop(sess, m)
    rates = [(e.step, v) for e in events(tmp_path) if e.HasField("summary") for v in e.summary.value]
    assert [s for s, _ in rates] == [6, 11]
    assert all(v.tag == "global_step/sec" and v.simple_value > 0 for _, v in rates)


def test_final_ops_hook_and_feed_fn_hook():
    with tf.Graph().as_default():
        m = linear_model()
        feeds = []

        def feed_fn():
            feeds.append(len(feeds))
            return m["feed"]
        final = tf.train.FinalOpsHook([m["w"], m["step"]])
        with tf.train.MonitoredSession(hooks=[tf.train.FeedFnHook(feed_fn), final]) as sess:
            for _ in range(3):
                sess.run(m["train"])  # the placeholders come from the FeedFnHook
            w = sess.run(m["w"])
        assert feeds == [0, 1, 2, 3]
        assert final.final_ops_values[0] == pytest.approx(w) and final.final_ops_values[1] == 3


def test_feed_conflict_between_hook_and_caller_names_the_tensor():
    with tf.Graph().as_default():
        m = linear_model()
        with tf.train.MonitoredSession(hooks=[tf.train.FeedFnHook(lambda: m["feed"])]) as sess:
            with pytest.raises(RuntimeError, match=r"Same tensor is fed by a SessionRunHook and user.*'x:0'"):
                sess.run(m["train"], {m["x"]: XS})


def test_global_step_waiter_hook_waits_for_another_thread():
    with tf.Graph().as_default():
        m = linear_model()
        bump = m["step"].assign_add(1)
        with tf.train.SingularMonitoredSession(hooks=[tf.train.GlobalStepWaiterHook(2)]) as sess:
            raw = sess.raw_session()

            def advance():
                time.sleep(0.05)
                raw.run(bump)
                raw.run(bump)
            threading.Thread(target=advance).start()
            start = time.time()
            sess.run(m["train"], m["feed"])
            assert time.time() - start >= 0.05
            assert sess.run(m["step"]) == 3
