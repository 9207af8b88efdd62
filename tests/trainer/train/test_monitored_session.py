"""tg.train.MonitoredTrainingSession / MonitoredSession / Scaffold, used the way TF1 programs use them."""
import os

import numpy as np
import pytest

import trainer as tf

XS = np.linspace(-1, 1, 100).astype(np.float32)
YS = (2 * XS + 0.3 * np.random.RandomState(0).randn(100)).astype(np.float32)
LR = 0.1


def linear_model():
    x = tf.placeholder(tf.float32, [None], name="x")
    y = tf.placeholder(tf.float32, [None], name="y")
    w = tf.Variable(tf.zeros([1]), name="w")
    b = tf.Variable(tf.zeros([1]), name="b")
    step = tf.train.get_or_create_global_step()
    loss = tf.reduce_mean(tf.square(y - (x * w + b)))
    train = tf.train.GradientDescentOptimizer(LR).minimize(loss, global_step=step)
    return dict(x=x, y=y, w=w, b=b, step=step, loss=loss, train=train, feed={x: XS, y: YS})


def numpy_gd(steps, w=0.0, b=0.0):
    """The oracle: full-batch gradient descent on mean((y - (w x + b))^2), in float64."""
    x, y = XS.astype(np.float64), YS.astype(np.float64)
    for _ in range(steps):
        r = y - (w * x + b)
        w, b = w + LR * 2 * np.mean(r * x), b + LR * 2 * np.mean(r)
    return w, b


def train_to(checkpoint_dir, last_step, **kwargs):
    """A TF1 training program: returns (global step at start, at end, w, b)."""
    with tf.Graph().as_default():
        m = linear_model()
        final = tf.train.FinalOpsHook([m["step"], m["w"], m["b"]])
        hooks = [tf.train.StopAtStepHook(last_step=last_step), final]
        with tf.train.MonitoredTrainingSession(checkpoint_dir=checkpoint_dir, hooks=hooks, **kwargs) as sess:
            start = None
            while not sess.should_stop():
                _, step = sess.run([m["train"], m["step"]], m["feed"])
                start = step - 1 if start is None else start
        step, w, b = final.final_ops_values
        return start, int(step), float(w[0]), float(b[0])


def test_linear_regression_trains_and_checkpoints(tmp_path):
    start, step, w, b = train_to(str(tmp_path), 30)
    assert (start, step) == (0, 30)
    assert (w, b) == pytest.approx(numpy_gd(30), abs=1e-5)
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "model.ckpt-30")
    assert tf.train.load_variable(str(tmp_path), "w") == pytest.approx([w])
    names = os.listdir(tmp_path)
    assert any(n.startswith("events.out.tfevents") for n in names)  # the chief's StepCounterHook and summaries


def test_reopening_resumes_from_the_checkpoint(tmp_path):
    train_to(str(tmp_path), 12)
    start, step, w, b = train_to(str(tmp_path), 25)
    assert (start, step) == (12, 25)  # the global step continues
    assert (w, b) == pytest.approx(numpy_gd(25), abs=1e-5)  # as if it never stopped
    # No checkpoint_dir: every open starts afresh.
    assert train_to(None, 5)[:2] == (0, 5)


def test_checkpoint_every_n_steps(tmp_path):
    train_to(str(tmp_path), 7, save_checkpoint_steps=3)
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == [
        f"model.ckpt-{s}" for s in (0, 3, 6, 7)]


def test_default_summaries_and_step_counter_go_to_checkpoint_dir(tmp_path):
    with tf.Graph().as_default():
        m = linear_model()
        tf.summary.scalar("train_loss", m["loss"])
        hooks = [tf.train.StopAtStepHook(last_step=6)]
        with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), hooks=hooks, save_summaries_steps=2,
                                               log_step_count_steps=3) as sess:
            while not sess.should_stop():
                sess.run(m["train"], m["feed"])
    tf.summary.FileWriterCache.get(str(tmp_path)).flush()
    files = [f for f in os.listdir(tmp_path) if f.startswith("events")]
    tags = {}
    for e in (e for f in files for e in tf.train.summary_iterator(str(tmp_path / f))):
        for v in e.summary.value if e.HasField("summary") else ():
            tags.setdefault(v.tag, []).append(e.step)
    assert tags == {"train_loss": [1, 3, 5], "global_step/sec": [4]}


class Recorder(tf.train.SessionRunHook):
    def __init__(self):
        self.calls = []

    def begin(self):
        self.calls.append("begin")

    def after_create_session(self, session, coord):
        self.calls.append("after_create_session")

    def before_run(self, run_context):
        self.calls.append("before_run")
        return tf.train.SessionRunArgs({"step": tf.train.get_global_step()})

    def after_run(self, run_context, run_values):
        self.calls.append(("after_run", int(run_values.results["step"])))

    def end(self, session):
        self.calls.append("end")


def test_hook_protocol_order_and_results():
    hook = Recorder()
    with tf.Graph().as_default():
        m = linear_model()
        with tf.train.MonitoredSession(hooks=[hook]) as sess:
            assert sess.run(m["train"], m["feed"]) is None  # the caller gets only its own fetches
            sess.run(m["train"], m["feed"])
    assert hook.calls == ["begin", "after_create_session", "before_run", ("after_run", 1), "before_run",
                          ("after_run", 2), "end"]


def test_end_is_not_called_when_the_loop_fails():
    hook = Recorder()
    with tf.Graph().as_default():
        m = linear_model()
        with pytest.raises(ZeroDivisionError):
            with tf.train.MonitoredSession(hooks=[hook]) as sess:
                sess.run(m["train"], m["feed"])
                1 / 0
    assert "end" not in hook.calls


def test_out_of_range_error_ends_the_loop_quietly():
    hook = Recorder()
    with tf.Graph().as_default():
        m = linear_model()
        with tf.train.MonitoredSession(hooks=[hook]) as sess:
            for batch in range(100):
                if batch == 3:
                    raise tf.errors.OutOfRangeError(None, None, "End of sequence")
                sess.run(m["train"], m["feed"])
    assert hook.calls[-1] == "end" and sess.should_stop()


def test_chief_only_hooks_run_only_on_the_chief():
    for is_chief in (True, False):
        chief_hook, hook = Recorder(), Recorder()
        with tf.Graph().as_default():
            m = linear_model()
            # A worker's model must be made ready by something: here its own local_init_op.
            scaffold = None if is_chief else tf.train.Scaffold(
                local_init_op=tf.global_variables_initializer(),
                ready_for_local_init_op=tf.report_uninitialized_variables([]))
            with tf.train.MonitoredTrainingSession(is_chief=is_chief, scaffold=scaffold, hooks=[hook],
                                                   chief_only_hooks=[chief_hook]) as sess:
                sess.run(m["train"], m["feed"])
        assert hook.calls[-1] == "end"
        assert bool(chief_hook.calls) == is_chief


def test_a_worker_that_never_becomes_ready_says_why():
    with tf.Graph().as_default():
        linear_model()
        with pytest.raises(tf.errors.DeadlineExceededError, match="not ready after waiting 0 secs.*Variables not "
                           "initialized: w, b, global_step.*is_chief=True"):
            tf.train.MonitoredTrainingSession(is_chief=False, max_wait_secs=0)


def test_run_step_fn_and_step_context_request_stop():
    with tf.Graph().as_default():
        m = linear_model()
        with tf.train.MonitoredSession() as sess:
            def step_fn(step_context):
                step = step_context.run_with_hooks([m["train"], m["step"]], m["feed"])[1]
                if step == 3:
                    step_context.request_stop()
                return step_context.session.run(m["step"])
            values = []
            while not sess.should_stop():
                values.append(sess.run_step_fn(step_fn))
        assert values == [1, 2]
        with pytest.raises(ValueError, match="`step_fn` may either have one `step_context` argument"):
            with tf.train.MonitoredSession() as sess:
                sess.run_step_fn(lambda ctx: None)


def test_singular_monitored_session_raw_session_and_graph():
    with tf.Graph().as_default() as g:
        m = linear_model()
        with tf.train.SingularMonitoredSession() as sess:
            assert sess.graph is g
            raw = sess.raw_session()
            assert isinstance(raw, tf.Session)
            raw.run(m["train"], m["feed"])  # no hooks
            assert raw.run(m["step"]) == 1
            with pytest.raises(RuntimeError, match="finalized"):
                tf.constant(1.0)  # the Scaffold froze the graph


def test_scaffold_defaults_collections_and_init_fn():
    with tf.Graph().as_default() as g:
        m = linear_model()
        seen = []
        scaffold = tf.train.Scaffold(init_fn=lambda scaffold_, sess: seen.append(scaffold_) or m["w"].load([3.0], sess))
        with tf.train.SingularMonitoredSession(scaffold=scaffold) as sess:
            assert seen == [scaffold]  # TF1 passes the scaffold itself to init_fn
            assert sess.raw_session().run(m["w"]) == pytest.approx([3.0])
        assert g.get_collection(tf.GraphKeys.INIT_OP) == [scaffold.init_op]
        assert g.get_collection(tf.GraphKeys.SAVERS) == [scaffold.saver]
        assert scaffold.summary_op is None  # no summaries in this graph
        copy = tf.train.Scaffold(copy_from_scaffold=scaffold, init_feed_dict={m["x"]: XS})
        assert copy.init_op is scaffold.init_op and copy.init_feed_dict is not None
    with tf.Graph().as_default():
        tf.Variable(1.0)
        tf.add_to_collection(tf.GraphKeys.INIT_OP, tf.no_op())
        tf.add_to_collection(tf.GraphKeys.INIT_OP, tf.no_op())
        with pytest.raises(RuntimeError, match="More than one item in the collection 'init_op'"):
            tf.train.Scaffold().finalize()
    with pytest.raises(TypeError, match="copy_from_scaffold is not a Scaffold"):
        tf.train.Scaffold(copy_from_scaffold=object())


def test_feed_conflict_between_two_hooks():
    class Feeder(tf.train.SessionRunHook):
        def __init__(self, feed):
            self.feed = feed

        def before_run(self, run_context):
            return tf.train.SessionRunArgs(None, feed_dict=self.feed)

    with tf.Graph().as_default():
        m = linear_model()
        with tf.train.MonitoredSession(hooks=[Feeder(m["feed"]), Feeder({m["y"]: YS})]) as sess:
            with pytest.raises(RuntimeError, match=r"Same tensor is fed by two hooks.*'y:0'"):
                sess.run(m["train"])


def test_monitored_session_recovers_from_aborted_error(tmp_path):
    class AbortOnce(tf.train.SessionRunHook):
        created = 0
        aborted = False

        def after_create_session(self, session, coord):
            self.created += 1

        def before_run(self, run_context):
            if not self.aborted and self.created == 1 and run_context.session.run(tf.train.get_global_step()) == 4:
                self.aborted = True
                raise tf.errors.AbortedError(None, None, "preempted")

    hook = AbortOnce()
    with tf.Graph().as_default():
        m = linear_model()
        scaffold = tf.train.Scaffold()
        saver_hook = tf.train.CheckpointSaverHook(str(tmp_path), save_steps=2, scaffold=scaffold)
        session_creator = tf.train.ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=str(tmp_path))
        with tf.train.MonitoredSession(session_creator=session_creator, hooks=[saver_hook, hook]) as sess:
            steps = [sess.run([m["train"], m["step"]], m["feed"])[1] for _ in range(6)]
    # Steps 1-4 ran; the abort at step 4 recreated the session from the checkpoint at step 4, which goes on.
    assert hook.created == 2 and steps == [1, 2, 3, 4, 5, 6]
    with tf.Graph().as_default():
        m = linear_model()
        hook = AbortOnce()
        with pytest.raises(tf.errors.AbortedError, match="preempted"):
            with tf.train.SingularMonitoredSession(hooks=[hook]) as sess:
                for _ in range(6):
                    sess.run(m["train"], m["feed"])


def test_start_queue_runners_has_no_queues():
    with tf.Graph().as_default():
        tf.Variable(1.0)
        with tf.Session() as sess:
            coord = tf.train.Coordinator()
            assert tf.train.start_queue_runners(sess=sess, coord=coord) == []
    with pytest.raises(ValueError, match="No default session is registered"):
        tf.train.start_queue_runners()


def test_graph_is_finalized_during_the_session_and_writable_after():
    with tf.Graph().as_default() as g:
        m = linear_model()
        with tf.train.MonitoredSession() as sess:
            sess.run(m["train"], m["feed"])
            assert g.finalized
        assert not g.finalized  # TF1 unfinalizes what the monitored session finalized
        with pytest.raises(RuntimeError, match="closed MonitoredSession"):
            sess.run(m["train"], m["feed"])
        tf.constant(1.0)
        g.finalize()
        with tf.train.MonitoredSession():
            pass
        assert g.finalized  # ... but leaves a graph the program finalized itself as it was


def test_local_init_op_waits_for_ready_for_local_init_op():
    # TF1's SessionManager runs local_init_op only once ready_for_local_init_op reports nothing uninitialized
    with tf.Graph().as_default():
        w = tf.Variable(1.0, name="w")
        copy = tf.Variable(w + 1.0, name="copy", collections=[tf.GraphKeys.LOCAL_VARIABLES])  # reads w
        manager = tf.train.SessionManager(local_init_op=copy.initializer,
                                          ready_op=tf.report_uninitialized_variables(),
                                          ready_for_local_init_op=tf.report_uninitialized_variables(
                                              tf.global_variables()))
        with pytest.raises(RuntimeError, match="did not make model ready for local_init.*Variables not "
                           "initialized: w"):
            manager.prepare_session("", init_fn=lambda sess: None)
        sess = manager.prepare_session("", init_op=w.initializer)
        assert sess.run(copy) == 2.0  # the local init ran once w was initialized
        assert not sess.run(tf.report_uninitialized_variables()).size
