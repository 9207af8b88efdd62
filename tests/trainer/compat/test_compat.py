"""trainer.compat.v1 is the whole trainer namespace (as tf.compat.v1), plus TF1's eager switches and version."""
import numpy as np
import pytest

import trainer
import trainer.compat.v1 as tf


def test_every_trainer_name_is_there_and_the_same_object():
    public = [name for name in dir(trainer) if not name.startswith("_")]
    assert public and all(getattr(tf, name) is getattr(trainer, name) for name in public)
    assert set(public) <= set(dir(tf)) and set(public) <= set(tf.__all__)
    for name in ("train", "nn", "losses", "summary", "app", "flags", "logging", "gfile", "ConfigProto"):
        assert getattr(tf, name) is getattr(trainer, name)
    assert trainer.compat.v1 is tf and tf.compat.v1 is tf


def test_names_added_to_trainer_later_appear(monkeypatch):
    marker = object()
    monkeypatch.setattr(trainer, "added_later", marker, raising=False)
    assert tf.added_later is marker and "added_later" in dir(tf)
    from trainer.compat.v1 import added_later
    assert added_later is marker


def test_missing_name_is_named():
    with pytest.raises(AttributeError, match="'no_such_op'"):
        tf.no_such_op


def test_a_tf1_graph_through_compat_v1():
    tf.disable_eager_execution()
    tf.disable_v2_behavior()
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, shape=[2])
        y = tf.reduce_sum(x * x)
        with tf.Session() as sess:
            assert np.isclose(sess.run(y, {x: [3.0, 4.0]}), 25.0)


def test_eager_switches():
    assert tf.executing_eagerly() is False and trainer.executing_eagerly() is False
    for switch in (tf.enable_eager_execution, tf.enable_v2_behavior):
        with pytest.raises(NotImplementedError, match="graph"):
            switch()


def test_string_helpers():
    assert trainer.compat.as_bytes("é") == "é".encode() and trainer.compat.as_text(b"\xc3\xa9") == "é"
    assert trainer.compat.as_str_any(3) == "3"
    with pytest.raises(TypeError, match="got 3"):
        trainer.compat.as_bytes(3)


def test_version_reads_as_tf_1_15():
    assert trainer.VERSION == trainer.__version__ == trainer.version.VERSION == tf.__version__
    major, minor = (int(part) for part in trainer.__version__.split(".")[:2])
    assert (major, minor) == (1, 15) and "ringflow" in trainer.__version__
    packaging = pytest.importorskip("packaging.version")
    assert packaging.Version(trainer.VERSION).release == (1, 15, 0)


def test_tf1_names_ringflow_lacks_say_what_to_use_and_hasattr_still_works():
    import trainer as tf
    with pytest.raises(AttributeError, match=r"tf\.py_function is not available in ringflow .*tf\.py_func"):
        tf.py_function
    assert hasattr(tf, "estimator") and hasattr(tf.compat.v1.estimator.inputs, "numpy_input_fn")  # now provided
    assert hasattr(tf, "contrib") and tf.contrib.rnn.LSTMCell is tf.nn.rnn_cell.LSTMCell  # tg.contrib exists now
    with pytest.raises(AttributeError, match=r"tf\.contrib\.crf is not available in ringflow"):
        tf.contrib.crf
    with pytest.raises(AttributeError, match=r"tf\.keras\.saving is not available in ringflow .*tf\.layers"):
        tf.keras.saving  # TF 2's module
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        tf.no_such_name


def test_tf_data_is_tf1s_input_pipeline_and_keeps_ringflows_sharding_helpers():
    import subprocess
    import sys
    program = ("import trainer as tf\n"
               "ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0])\n"
               "x = tf.compat.v1.data.make_one_shot_iterator(ds).get_next()\n"
               "with tf.Session() as sess:\n    print(sess.run(x), sess.run(x))\n"
               "print(tf.data.Iterator is tf.compat.v1.data.Iterator, tf.data.shard_bounds(10, 2, 1))")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first == "1.0 2.0"  # tf.data is an attribute of trainer as soon as it is imported
    assert second == "True (5, 10)"  # ringflow's own sharding functions keep working
    from trainer.data import Pipeline, shard_bounds  # noqa: F401  (the old import path)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_thing'"):
        __import__("trainer").data.no_such_thing
