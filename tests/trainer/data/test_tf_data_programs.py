"""Whole TF1 programs on tf.data: training through get_next(), MonitoredTrainingSession loops, the patterns of
TF1's "Importing Data" guide, and how Dataset.shard relates to ringflow's Pipeline."""
import numpy as np
import pytest

import trainer as tf
from tests.trainer.data.tf_data_util import drain, fresh_graph  # noqa: F401  (fresh_graph: autouse)
from trainer.data import Pipeline

RNG = np.random.default_rng(42)
X = RNG.normal(size=(50, 3))
Y = (X @ np.array([1.0, -2.0, 0.5]) + 0.1 * RNG.normal(size=50)).reshape(-1, 1)
EPOCHS, BATCH = 3, 8


def linear_model(x, y):
    w = tf.get_variable("w", [3, 1], tf.float64, initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [1], tf.float64, initializer=tf.zeros_initializer())
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    return tf.train.GradientDescentOptimizer(0.1).minimize(loss), w, b


def pipeline(shuffle):
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).map(lambda a, b: (a * 2.0 - 1.0, b))
    return (ds.shuffle(50, seed=3) if shuffle else ds).repeat(EPOCHS).batch(BATCH)


def train_with_get_next(shuffle):
    with tf.Graph().as_default():
        x, y = pipeline(shuffle).make_one_shot_iterator().get_next()
        train, w, b = linear_model(x, y)
        steps = 0
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            try:
                while True:
                    sess.run(train)
                    steps += 1
            except tf.errors.OutOfRangeError:
                pass
            return steps, sess.run([w, b])


def train_with_feed_dict(batches):
    with tf.Graph().as_default():
        x, y = tf.placeholder(tf.float64, [None, 3]), tf.placeholder(tf.float64, [None, 1])
        train, w, b = linear_model(x, y)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for xb, yb in batches:
                sess.run(train, {x: xb, y: yb})
            return len(batches), sess.run([w, b])


@pytest.mark.parametrize("shuffle", [False, True])
def test_a_model_trained_through_get_next_equals_it_trained_with_feed_dict_bitwise(shuffle):
    if shuffle:  # the order the same pipeline yields when only its elements are fetched
        with tf.Graph().as_default():
            batches = drain(pipeline(True))
    else:  # the closed form: the stream of EPOCHS passes, mapped in numpy, cut into batches
        xs, ys = np.concatenate([X * 2.0 - 1.0] * EPOCHS), np.concatenate([Y] * EPOCHS)
        batches = [(xs[i:i + BATCH], ys[i:i + BATCH]) for i in range(0, len(xs), BATCH)]
    assert len(batches) == -(-EPOCHS * 50 // BATCH)
    got_steps, got = train_with_get_next(shuffle)
    want_steps, want = train_with_feed_dict(batches)
    assert got_steps == want_steps
    assert all(np.array_equal(a, c) for a, c in zip(got, want)) and not np.all(got[0] == 0)


class CountingHook(tf.train.SessionRunHook):
    def __init__(self):
        self.runs, self.ends = 0, 0

    def after_run(self, run_context, run_values):
        self.runs += 1

    def end(self, session):
        self.ends += 1


@pytest.mark.parametrize("initializable", [False, True])
def test_monitored_training_session_stops_at_the_end_of_the_data(initializable, tmp_path):
    ds = tf.data.Dataset.from_tensor_slices(np.arange(10.0)).batch(3)
    it = ds.make_initializable_iterator() if initializable else ds.make_one_shot_iterator()
    batch = it.get_next()
    total = tf.get_variable("total", [], tf.float64, initializer=tf.zeros_initializer())
    step = tf.train.get_or_create_global_step()
    train = tf.group(tf.assign_add(total, tf.reduce_sum(batch)), tf.assign_add(step, 1))
    scaffold = tf.train.Scaffold(local_init_op=it.initializer) if initializable else None
    hook = CountingHook()
    with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), scaffold=scaffold,
                                           hooks=[hook, tf.train.StopAtStepHook(last_step=100)]) as sess:
        while not sess.should_stop():  # left by the OutOfRangeError, which the session's exit swallows
            sess.run(train)
    assert hook.runs == 4 and hook.ends == 1  # 4 batches ran; every hook's end() ran: a clean stop
    assert tf.train.load_variable(str(tmp_path), "total") == 45.0  # the checkpoint hook's end() saved it
    assert tf.train.load_variable(str(tmp_path), "global_step") == 4


def test_a_classifier_learns_from_a_shuffled_repeated_pipeline_in_a_monitored_session():
    """A TF1-style softmax regression: map (scale, one-hot), shuffle, batch, repeat, prefetch; then evaluation
    by re-initializing the same iterator on the held-out set."""
    rng = np.random.default_rng(1)
    centers = rng.normal(scale=4.0, size=(3, 5))
    labels = rng.integers(0, 3, size=600)
    points = (centers[labels] + rng.normal(size=(600, 5))).astype(np.float32) * 10.0
    train_x, train_y, test_x, test_y = points[:500], labels[:500], points[500:], labels[500:]

    def prepare(x, y):
        return x / 10.0, tf.one_hot(y, 3)
    train = tf.data.Dataset.from_tensor_slices((train_x, train_y)).map(prepare, num_parallel_calls=2) \
        .shuffle(500, seed=0).batch(32).repeat().prefetch(1)
    evaluation = tf.data.Dataset.from_tensor_slices((test_x, test_y)).map(prepare).batch(100)
    iterator = tf.data.Iterator.from_structure(train.output_types, train.output_shapes)
    x, y = iterator.get_next()
    logits = tf.layers.dense(x, 3)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))
    correct = tf.reduce_sum(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(y, 1)), tf.float32))
    step = tf.train.get_or_create_global_step()
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=step)
    train_init, eval_init = iterator.make_initializer(train), iterator.make_initializer(evaluation)
    scaffold = tf.train.Scaffold(local_init_op=train_init)
    with tf.train.MonitoredTrainingSession(scaffold=scaffold) as sess:
        for _ in range(200):  # about 13 passes over the training set, each in its own order
            sess.run(train_op)
        assert sess.run(step) == 200
        sess.run(eval_init)
        right = 0
        while True:
            try:
                right += sess.run(correct)
            except tf.errors.OutOfRangeError:
                break
    assert right / len(test_y) > 0.95  # an untrained model gets about a third right


def test_importing_data_guide_reinitializable_iterator():
    """Training data with random noise and validation data through one reinitializable iterator."""
    training = tf.data.Dataset.range(100).map(lambda x: x + tf.random_uniform([], -10, 10, tf.int64))
    validation = tf.data.Dataset.range(50)
    iterator = tf.data.Iterator.from_structure(training.output_types, training.output_shapes)
    next_element = iterator.get_next()
    training_init, validation_init = iterator.make_initializer(training), iterator.make_initializer(validation)
    with tf.Session() as sess:
        for _ in range(3):
            sess.run(training_init)
            noisy = np.array([sess.run(next_element) for _ in range(100)])
            assert np.all(np.abs(noisy - np.arange(100)) <= 10) and np.any(noisy != np.arange(100))
            sess.run(validation_init)
            assert [sess.run(next_element) for _ in range(50)] == list(range(50))


def test_importing_data_guide_feedable_iterator():
    """An endless training set and a validation set chosen per step by feeding a string handle."""
    training = tf.data.Dataset.range(100).map(lambda x: x + 1000).repeat()
    validation = tf.data.Dataset.range(50)
    handle = tf.placeholder(tf.string, shape=[])
    iterator = tf.data.Iterator.from_string_handle(handle, training.output_types, training.output_shapes)
    next_element = iterator.get_next()
    training_iterator = training.make_one_shot_iterator()
    validation_iterator = validation.make_initializable_iterator()
    with tf.Session() as sess:
        training_handle = sess.run(training_iterator.string_handle())
        validation_handle = sess.run(validation_iterator.string_handle())
        seen = []
        for _ in range(3):
            seen += [sess.run(next_element, feed_dict={handle: training_handle}) for _ in range(200)]
            sess.run(validation_iterator.initializer)
            assert [sess.run(next_element, feed_dict={handle: validation_handle}) for _ in range(50)] == list(range(50))
        assert seen == [1000 + i % 100 for i in range(600)]


def test_importing_data_guide_numpy_arrays_through_placeholders_for_several_epochs():
    """Arrays fed once at initialization, batched, read until OutOfRangeError each epoch."""
    features, labels = np.arange(40.0).reshape(20, 2), np.arange(20) % 3
    features_placeholder = tf.placeholder(features.dtype, features.shape)
    labels_placeholder = tf.placeholder(labels.dtype, labels.shape)
    dataset = tf.data.Dataset.from_tensor_slices((features_placeholder, labels_placeholder)).batch(6)
    iterator = dataset.make_initializable_iterator()
    next_features, next_labels = iterator.get_next()
    with tf.Session() as sess:
        for _ in range(2):
            sess.run(iterator.initializer, feed_dict={features_placeholder: features, labels_placeholder: labels})
            sums = []
            while True:
                try:
                    f, lab = sess.run([next_features, next_labels])
                except tf.errors.OutOfRangeError:
                    break
                sums.append((f.sum(), lab.tolist()))
            assert [s for s, _ in sums] == [features[i:i + 6].sum() for i in range(0, 20, 6)]
            assert sum((lab for _, lab in sums), []) == labels.tolist()


def test_importing_data_guide_batching_and_padded_batching():
    inc, dec = tf.data.Dataset.range(100), tf.data.Dataset.range(0, -100, -1)
    batched = tf.data.Dataset.zip((inc, dec)).batch(4)
    padded = tf.data.Dataset.range(100).map(lambda x: tf.fill([tf.cast(x, tf.int32)], x)) \
        .padded_batch(4, padded_shapes=(None,))
    pairs, sequences = batched.make_one_shot_iterator().get_next(), padded.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert [v.tolist() for v in sess.run(pairs)] == [[0, 1, 2, 3], [0, -1, -2, -3]]
        assert [v.tolist() for v in sess.run(pairs)] == [[4, 5, 6, 7], [-4, -5, -6, -7]]
        assert sess.run(sequences).tolist() == [[0, 0, 0], [1, 0, 0], [2, 2, 0], [3, 3, 3]]
        assert sess.run(sequences).tolist() == [[4, 4, 4, 4, 0, 0, 0], [5, 5, 5, 5, 5, 0, 0],
                                                [6, 6, 6, 6, 6, 6, 0], [7, 7, 7, 7, 7, 7, 7]]


def test_shard_is_round_robin_and_pipeline_splits_each_global_batch_contiguously():
    n, workers, global_batch = 24, 3, 6
    per_worker = global_batch // workers
    sharded = [[b.tolist() for b in drain(tf.data.Dataset.range(n).shard(workers, i).batch(per_worker))]
               for i in range(workers)]
    pipelines = [Pipeline((np.arange(n),), global_batch, rank=i, size=workers, shuffle=False) for i in range(workers)]
    contiguous = [[p.next_batch()[0].tolist() for _ in range(n // global_batch)] for p in pipelines]
    assert sharded[0][:2] == [[0, 3], [6, 9]] and contiguous[0][:2] == [[0, 1], [6, 7]]
    for step in range(n // global_batch):  # each step covers the same samples, split differently among workers
        window = list(range(step * global_batch, (step + 1) * global_batch))
        assert sorted(sum((s[step] for s in sharded), [])) == window == sorted(sum((c[step] for c in contiguous), []))
    assert sharded != contiguous
