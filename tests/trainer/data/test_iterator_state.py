"""An iterator's position in checkpoints: make_saveable_from_iterator with tf.train.Saver, and
CheckpointInputPipelineHook under an Estimator, resuming on the next element as TF1 does."""
import numpy as np
import pytest

import trainer as tf
from tests.trainer.data.tf_data_util import fresh_graph  # noqa: F401  (autouse)


def _saved_mid_epoch(dataset, path, taken, initializer_feed=None, one_shot=False):
    """Run `taken` elements, save, and return (the graph's iterator get_next, saver, the elements after the save in
    the same session, the checkpoint)."""
    it = dataset.make_one_shot_iterator() if one_shot else dataset.make_initializable_iterator()
    tf.add_to_collection(tf.GraphKeys.SAVEABLE_OBJECTS, tf.data.experimental.make_saveable_from_iterator(it))
    step = tf.Variable(0, name="w")
    saver = tf.train.Saver()
    x = it.get_next()
    with tf.Session() as sess:
        sess.run(step.initializer)
        if not one_shot:
            sess.run(it.initializer, initializer_feed)
        before = [sess.run(x).tolist() for _ in range(taken)]
        prefix = saver.save(sess, str(path / "model.ckpt"))
        after = _drain(sess, x)
    return x, saver, before, after, prefix


def _drain(sess, x, limit=100):
    values = []
    for _ in range(limit):
        try:
            values.append(sess.run(x).tolist())
        except tf.errors.OutOfRangeError:
            break
    return values


def test_a_restored_iterator_resumes_on_the_next_element_of_tfs_shuffled_order(tmp_path):
    # TF 2.15 (compat.v1 graph mode) gives [4 7] [2 6] | [8 0] [3 1] [5 9] for this pipeline, saving after two
    x, saver, before, after, prefix = _saved_mid_epoch(
        tf.data.Dataset.range(10).shuffle(10, seed=3).batch(2), tmp_path, 2)
    assert before == [[4, 7], [2, 6]] and after == [[8, 0], [3, 1], [5, 9]]
    assert dict(tf.train.list_variables(prefix)).keys() == {"IteratorV2:0_STATE", "w"}  # TF's key
    with tf.Session() as sess:  # a new session, the iterator not initialized: the checkpoint says where it was
        saver.restore(sess, prefix)
        assert _drain(sess, x) == after


def test_restoring_replaces_the_position_of_an_iterator_that_already_ran(tmp_path):
    x, saver, _, after, prefix = _saved_mid_epoch(tf.data.Dataset.range(6), tmp_path, 4, one_shot=True)
    with tf.Session() as sess:
        assert sess.run(x) == 0
        saver.restore(sess, prefix)
        assert _drain(sess, x) == after == [4, 5]


@pytest.mark.parametrize("reshuffle", [True, False])
def test_unseeded_shuffles_and_later_epochs_keep_their_order_across_a_restore(tmp_path, reshuffle):
    dataset = tf.data.Dataset.range(7).shuffle(7, reshuffle_each_iteration=reshuffle).repeat(3)
    x, saver, before, after, prefix = _saved_mid_epoch(dataset, tmp_path, 10)
    assert sorted(before[:7]) == list(range(7)) and len(after) == 11
    with tf.Session() as sess:
        saver.restore(sess, prefix)
        assert _drain(sess, x) == after


def test_the_values_a_dataset_captured_come_back_with_it(tmp_path):
    n = tf.placeholder(tf.int64, [])
    x, saver, before, after, prefix = _saved_mid_epoch(
        tf.data.Dataset.range(n).map(lambda v: v * 10), tmp_path, 2, initializer_feed={n: 5})
    assert before == [0, 10] and after == [20, 30, 40]
    with tf.Session() as sess:
        saver.restore(sess, prefix)  # nothing fed: the checkpoint holds n
        assert _drain(sess, x) == after


def test_an_iterator_at_its_end_restores_at_its_end(tmp_path):
    x, saver, _, after, prefix = _saved_mid_epoch(tf.data.Dataset.range(3), tmp_path, 3)
    assert after == []
    with tf.Session() as sess:
        saver.restore(sess, prefix)
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(x)


def test_saving_an_uninitialized_iterator_raises_tfs_error(tmp_path):
    it = tf.data.Dataset.range(3).make_initializable_iterator()
    saver = tf.train.Saver([tf.data.experimental.make_saveable_from_iterator(it)])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="iterator has not been initialized"):
            saver.save(sess, str(tmp_path / "model.ckpt"))


def test_a_python_generator_cannot_be_saved_unless_its_state_is_ignored(tmp_path):
    def dataset():
        return tf.data.Dataset.from_generator(lambda: iter(range(5)), tf.int64)

    it = dataset().make_one_shot_iterator()
    saver = tf.train.Saver([tf.data.experimental.make_saveable_from_iterator(it)])
    x = it.get_next()
    with tf.Session() as sess:
        sess.run(x)
        with pytest.raises(tf.errors.FailedPreconditionError, match="PyFunc is stateful.*from_generator"):
            saver.save(sess, str(tmp_path / "model.ckpt"))
    it = dataset().make_one_shot_iterator()
    saver = tf.train.Saver([tf.data.experimental.make_saveable_from_iterator(it, external_state_policy="ignore")])
    x = it.get_next()
    with tf.Session() as sess:
        sess.run(x)
        prefix = saver.save(sess, str(tmp_path / "model.ckpt"))
    with tf.Session() as sess:
        saver.restore(sess, prefix)
        assert _drain(sess, x) == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="Invalid `ExternalStatePolicy.`"):
        tf.data.experimental.make_saveable_from_iterator(it, external_state_policy="sometimes")


def test_a_checkpoint_without_the_iterator_says_which_key_is_missing(tmp_path):
    step = tf.Variable(0, name="w")
    with tf.Session() as sess:
        sess.run(step.initializer)
        prefix = tf.train.Saver().save(sess, str(tmp_path / "model.ckpt"))
    it = tf.data.Dataset.range(3).make_one_shot_iterator()
    saver = tf.train.Saver([step, tf.data.experimental.make_saveable_from_iterator(it)])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.NotFoundError, match="Key IteratorV2|Key OneShotIterator:0_STATE"):
            saver.restore(sess, prefix)


def _labels_seen(model_dir, seed):
    """The label batches three steps of an Estimator see, with CheckpointInputPipelineHook."""
    seen = []

    def input_fn():
        batches = tf.data.Dataset.range(20).shuffle(20, seed=seed).batch(2)
        return batches.map(lambda b: ({"x": tf.cast(b, tf.float32)}, tf.cast(b, tf.float32)))

    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [], initializer=tf.zeros_initializer())
        loss = tf.reduce_mean(tf.square(features["x"] * w - labels))
        train = tf.train.GradientDescentOptimizer(0.0).minimize(loss, tf.train.get_or_create_global_step())
        record = tf.train.LoggingTensorHook({"y": labels}, every_n_iter=1,
                                            formatter=lambda v: seen.append(v["y"].tolist()) or "")
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train, training_hooks=[record])

    est = tf.estimator.Estimator(model_fn, model_dir=str(model_dir),
                                 config=tf.estimator.RunConfig(save_checkpoints_steps=2))
    est.train(input_fn, hooks=[tf.data.experimental.CheckpointInputPipelineHook(est)], steps=3)
    return seen


def test_checkpoint_input_pipeline_hook_resumes_the_next_train_call_where_the_last_stopped(tmp_path):
    first, second = _labels_seen(tmp_path, 5), _labels_seen(tmp_path, 5)
    with tf.Graph().as_default():
        batches = tf.data.Dataset.range(20).shuffle(20, seed=5).batch(2).make_one_shot_iterator().get_next()
        with tf.Session() as sess:
            expected = [sess.run(batches).astype(np.float32).tolist() for _ in range(6)]
    assert first + second == expected
    assert tf.train.latest_checkpoint(str(tmp_path), "checkpoint_input") == str(tmp_path / "input.ckpt-6")
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "model.ckpt-6")  # the model's own, apart
