# Mirrors tensorflow/tensorflow: tensorflow/docs_src/programmers_guide/datasets.md ("Importing Data", r1.x guide)
"""The Importing Data guide's snippets run in order: dataset structure (output_types, output_shapes), one-shot,
initializable, reinitializable and feedable iterators, OutOfRangeError at the end, nested elements, numpy arrays
through placeholders, batch and padded_batch, repeat, shuffle, and a MonitoredTrainingSession that stops when
the dataset runs out.

Changed from the guide: loops shortened, and values the guide shows in comments are printed.
"""
from __future__ import print_function

import numpy as np
import tensorflow as tf

sess = tf.Session()

dataset1 = tf.data.Dataset.from_tensor_slices(tf.random_uniform([4, 10]))
print(dataset1.output_types)
print(dataset1.output_shapes)

dataset2 = tf.data.Dataset.from_tensor_slices(
    (tf.random_uniform([4]),
     tf.random_uniform([4, 100], maxval=100, dtype=tf.int32)))
print(dataset2.output_types)
print(dataset2.output_shapes)

dataset3 = tf.data.Dataset.zip((dataset1, dataset2))
print(dataset3.output_types)
print(dataset3.output_shapes)

dataset = tf.data.Dataset.from_tensor_slices(
    {"a": tf.random_uniform([4]),
     "b": tf.random_uniform([4, 100], maxval=100, dtype=tf.int32)})
print(dataset.output_types)
print(dataset.output_shapes)

dataset = tf.data.Dataset.range(100)
iterator = dataset.make_one_shot_iterator()
next_element = iterator.get_next()

for i in range(100):
    value = sess.run(next_element)
    assert i == value
print("one-shot: 100 values in order")

max_value = tf.placeholder(tf.int64, shape=[])
dataset = tf.data.Dataset.range(max_value)
iterator = dataset.make_initializable_iterator()
next_element = iterator.get_next()

sess.run(iterator.initializer, feed_dict={max_value: 10})
for i in range(10):
    value = sess.run(next_element)
    assert i == value

sess.run(iterator.initializer, feed_dict={max_value: 100})
for i in range(100):
    value = sess.run(next_element)
    assert i == value
print("initializable: 10 then 100 values in order")

training_dataset = tf.data.Dataset.range(100).map(
    lambda x: x + tf.random_uniform([], -10, 10, tf.int64))
validation_dataset = tf.data.Dataset.range(50)

iterator = tf.data.Iterator.from_structure(training_dataset.output_types,
                                           training_dataset.output_shapes)
next_element = iterator.get_next()

training_init_op = iterator.make_initializer(training_dataset)
validation_init_op = iterator.make_initializer(validation_dataset)

for _ in range(2):
    sess.run(training_init_op)
    noisy = [sess.run(next_element) for _ in range(100)]

    sess.run(validation_init_op)
    clean = [sess.run(next_element) for _ in range(50)]
print("reinitializable: training within 10 of range(100): %s, validation sum %d"
      % (all(-10 <= v - i < 10 for i, v in enumerate(noisy)), sum(clean)))

training_dataset = tf.data.Dataset.range(100).map(
    lambda x: x + tf.random_uniform([], -10, 10, tf.int64)).repeat()
validation_dataset = tf.data.Dataset.range(50)

handle = tf.placeholder(tf.string, shape=[])
iterator = tf.data.Iterator.from_string_handle(
    handle, training_dataset.output_types, training_dataset.output_shapes)
next_element = iterator.get_next()

training_iterator = training_dataset.make_one_shot_iterator()
validation_iterator = validation_dataset.make_initializable_iterator()

training_handle = sess.run(training_iterator.string_handle())
validation_handle = sess.run(validation_iterator.string_handle())

for _ in range(2):
    noisy = [sess.run(next_element, feed_dict={handle: training_handle}) for _ in range(200)]

    sess.run(validation_iterator.initializer)
    clean = [sess.run(next_element, feed_dict={handle: validation_handle}) for _ in range(50)]
print("feedable: training within 10 of range(100) repeated: %s, validation sum %d"
      % (all(-10 <= v - i % 100 < 10 for i, v in enumerate(noisy)), sum(clean)))

dataset = tf.data.Dataset.range(5)
iterator = dataset.make_initializable_iterator()
next_element = iterator.get_next()

result = tf.add(next_element, next_element)

sess.run(iterator.initializer)
print(sess.run(result))
print(sess.run(result))
print(sess.run(result))
print(sess.run(result))
print(sess.run(result))
try:
    sess.run(result)
except tf.errors.OutOfRangeError:
    print("End of dataset")

dataset1 = tf.data.Dataset.from_tensor_slices(tf.random_uniform([4, 10]))
dataset2 = tf.data.Dataset.from_tensor_slices((tf.random_uniform([4]), tf.random_uniform([4, 100])))
dataset3 = tf.data.Dataset.zip((dataset1, dataset2))

iterator = dataset3.make_initializable_iterator()

sess.run(iterator.initializer)
next1, (next2, next3) = iterator.get_next()
v1, v2, v3 = sess.run([next1, next2, next3])
print("nested element shapes:", v1.shape, v2.shape, v3.shape)

features = np.arange(12, dtype=np.float32).reshape(6, 2)
labels = np.arange(6, dtype=np.int64)
assert features.shape[0] == labels.shape[0]

features_placeholder = tf.placeholder(features.dtype, features.shape)
labels_placeholder = tf.placeholder(labels.dtype, labels.shape)

dataset = tf.data.Dataset.from_tensor_slices((features_placeholder, labels_placeholder))
iterator = dataset.make_initializable_iterator()
next_element = iterator.get_next()
sess.run(iterator.initializer, feed_dict={features_placeholder: features,
                                          labels_placeholder: labels})
row, label = sess.run(next_element)
print("numpy through placeholders:", row.tolist(), label)

inc_dataset = tf.data.Dataset.range(100)
dec_dataset = tf.data.Dataset.range(0, -100, -1)
dataset = tf.data.Dataset.zip((inc_dataset, dec_dataset))
batched_dataset = dataset.batch(4)

iterator = batched_dataset.make_one_shot_iterator()
next_element = iterator.get_next()

print(sess.run(next_element))
print(sess.run(next_element))
print(sess.run(next_element))

dataset = tf.data.Dataset.range(100)
dataset = dataset.map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))
dataset = dataset.padded_batch(4, padded_shapes=[None])

iterator = dataset.make_one_shot_iterator()
next_element = iterator.get_next()

print(sess.run(next_element))

print(sess.run(next_element))

dataset = tf.data.Dataset.range(10)
dataset = dataset.map(lambda x: x * 2)
dataset = dataset.repeat(3)
dataset = dataset.batch(4)
iterator = dataset.make_initializable_iterator()
next_element = iterator.get_next()

for _ in range(2):
    sess.run(iterator.initializer)
    batches = []
    while True:
        try:
            batches.append(sess.run(next_element).tolist())
        except tf.errors.OutOfRangeError:
            break

print("repeat(3).batch(4) batch sizes:", [len(b) for b in batches], "sum", sum(map(sum, batches)))

dataset = tf.data.Dataset.range(20)
dataset = dataset.shuffle(buffer_size=10000)
iterator = dataset.make_one_shot_iterator()
next_element = iterator.get_next()
shuffled = [sess.run(next_element) for _ in range(20)]
print("shuffle is a permutation:", sorted(shuffled) == list(range(20)), "and moved:", shuffled != list(range(20)))

xs = np.linspace(-1, 1, 50).astype(np.float32)
dataset = tf.data.Dataset.from_tensor_slices((xs, 3 * xs + 1))
dataset = dataset.shuffle(buffer_size=50)
dataset = dataset.batch(10)
dataset = dataset.repeat(3)
iterator = dataset.make_one_shot_iterator()
next_example, next_label = iterator.get_next()
w = tf.Variable(0.0)
b = tf.Variable(0.0)
loss = tf.reduce_mean(tf.square(w * next_example + b - next_label))

training_op = tf.train.AdagradOptimizer(0.5).minimize(
    loss, global_step=tf.train.get_or_create_global_step())

with tf.train.MonitoredTrainingSession() as mon_sess:
    steps = 0
    while not mon_sess.should_stop():
        mon_sess.run(training_op)
        steps += 1
print("MonitoredTrainingSession ran %d steps until OutOfRangeError" % steps)
