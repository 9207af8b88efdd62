"""tf.data in a TF1 session, one idiom per function: a dataset's output_types/output_shapes for a tensor, a
tuple, a zip and a dict; one-shot, initializable (placeholder-sized), reinitializable (Iterator.from_structure +
make_initializer) and feedable (Iterator.from_string_handle + string_handle) iterators; tf.errors.OutOfRangeError
at the end of a pass; nested elements unpacked from get_next; numpy arrays fed through placeholders at
initialisation; batch, padded_batch, map, repeat, shuffle; and a tf.train.MonitoredTrainingSession whose
should_stop() turns true when the input runs out."""
import numpy as np
import tensorflow as tf


def jitter(limit):
    """range(limit) with each value moved by a random int64 in [-5, 5)."""
    return tf.data.Dataset.range(limit).map(lambda v: v + tf.random_uniform([], -5, 5, tf.int64))


def drain(session, element):
    values = []
    try:
        while True:
            values.append(session.run(element))
    except tf.errors.OutOfRangeError:
        return values


def structure():
    single = tf.data.Dataset.from_tensor_slices(tf.random_uniform([5, 8]))
    pair = tf.data.Dataset.from_tensor_slices(
        (tf.random_uniform([5]), tf.random_uniform([5, 30], maxval=50, dtype=tf.int32)))
    named = tf.data.Dataset.from_tensor_slices(
        {"x": tf.random_uniform([5]), "y": tf.random_uniform([5, 30], maxval=50, dtype=tf.int32)})
    for label, dataset in (("single", single), ("pair", pair), ("nested", tf.data.Dataset.zip((single, pair))),
                           ("named", named)):
        print("%s types: %s" % (label, dataset.output_types))
        print("%s shapes: %s" % (label, dataset.output_shapes))


def iterators(session):
    element = tf.data.Dataset.range(60).make_one_shot_iterator().get_next()
    print("one-shot iterator: values in order:", [session.run(element) for _ in range(60)] == list(range(60)))

    limit = tf.placeholder(tf.int64, [])
    sized = tf.data.Dataset.range(limit).make_initializable_iterator()
    counts = []
    for size in (6, 60):
        session.run(sized.initializer, {limit: size})
        counts.append(len(drain(session, sized.get_next())))
    print("initializable iterator passes:", counts)

    shared = tf.data.Iterator.from_structure(tf.int64, tf.TensorShape([]))
    element = shared.get_next()
    to_train, to_check = shared.make_initializer(jitter(80)), shared.make_initializer(tf.data.Dataset.range(40))
    for _ in range(2):
        session.run(to_train)
        noisy = drain(session, element)
        session.run(to_check)
        checked = drain(session, element)
    close = len(noisy) == 80 and all(-5 <= v - i < 5 for i, v in enumerate(noisy))
    print("reinitializable iterator: training near range(80): %s, validation sum %d" % (close, sum(checked)))

    training = jitter(80).repeat()
    handle = tf.placeholder(tf.string, [])
    element = tf.data.Iterator.from_string_handle(handle, training.output_types, training.output_shapes).get_next()
    train_handle = session.run(training.make_one_shot_iterator().string_handle())
    checking = tf.data.Dataset.range(40).make_initializable_iterator()
    check_handle = session.run(checking.string_handle())
    for _ in range(2):
        noisy = [session.run(element, {handle: train_handle}) for _ in range(160)]
        session.run(checking.initializer)
        checked = [session.run(element, {handle: check_handle}) for _ in range(40)]
    close = all(-5 <= v - i % 80 < 5 for i, v in enumerate(noisy))
    print("feedable iterator: training near range(80) repeated: %s, validation sum %d" % (close, sum(checked)))


def ending(session):
    iterator = tf.data.Dataset.range(4).make_initializable_iterator()
    item = iterator.get_next()
    doubled = tf.add(item, item)
    session.run(iterator.initializer)
    while True:
        try:
            print("doubled", session.run(doubled))
        except tf.errors.OutOfRangeError:
            print("OutOfRangeError after the last element")
            break


def nesting(session):
    pair = tf.data.Dataset.from_tensor_slices((tf.random_uniform([3]), tf.random_uniform([3, 50])))
    iterator = tf.data.Dataset.zip((tf.data.Dataset.from_tensor_slices(tf.random_uniform([3, 6])), pair)) \
        .make_initializable_iterator()
    session.run(iterator.initializer)
    first, (second, third) = iterator.get_next()
    print("nested element shapes:", *[v.shape for v in session.run([first, second, third])])

    rows, labels = np.arange(10, dtype=np.float32).reshape(5, 2), np.arange(5, dtype=np.int64)
    rows_in, labels_in = tf.placeholder(rows.dtype, rows.shape), tf.placeholder(labels.dtype, labels.shape)
    fed = tf.data.Dataset.from_tensor_slices((rows_in, labels_in)).make_initializable_iterator()
    session.run(fed.initializer, {rows_in: rows, labels_in: labels})
    row, label = session.run(fed.get_next())
    print("placeholder-fed first row:", row.tolist(), "label", label)


def batching(session):
    counting = tf.data.Dataset.zip((tf.data.Dataset.range(90), tf.data.Dataset.range(0, -90, -1)))
    element = counting.batch(3).make_one_shot_iterator().get_next()
    for _ in range(3):
        print(session.run(element))

    ragged = tf.data.Dataset.range(90).map(lambda v: tf.fill([tf.cast(v, tf.int32)], v))
    element = ragged.padded_batch(3, padded_shapes=[None]).make_one_shot_iterator().get_next()
    for _ in range(2):
        print(session.run(element))

    epochs = tf.data.Dataset.range(8).map(lambda v: v * 3).repeat(2).batch(5).make_initializable_iterator()
    for _ in range(2):  # a second pass after re-initialising gives the same batches
        session.run(epochs.initializer)
        batches = drain(session, epochs.get_next())
    print("repeat(2).batch(5) batch sizes:", [len(b) for b in batches], "sum", int(sum(b.sum() for b in batches)))

    element = tf.data.Dataset.range(25).shuffle(buffer_size=1000).make_one_shot_iterator().get_next()
    mixed = [session.run(element) for _ in range(25)]
    print("shuffled: a permutation:", sorted(mixed) == list(range(25)), "not in order:", mixed != list(range(25)))


def monitored():
    points = np.linspace(-2, 2, 40).astype(np.float32)
    examples = tf.data.Dataset.from_tensor_slices((points, 1 - 2 * points)).shuffle(40).batch(8).repeat(2)
    x, y = examples.make_one_shot_iterator().get_next()
    slope, offset = tf.Variable(0.0), tf.Variable(0.0)
    loss = tf.reduce_mean(tf.square(slope * x + offset - y))
    step = tf.train.AdagradOptimizer(0.5).minimize(loss, global_step=tf.train.get_or_create_global_step())
    runs = 0
    with tf.train.MonitoredTrainingSession() as session:
        while not session.should_stop():
            session.run(step)
            runs += 1
    print("MonitoredTrainingSession stopped after %d steps" % runs)


structure()
with tf.Session() as session:
    iterators(session)
    ending(session)
    nesting(session)
    batching(session)
monitored()
