"""Two hidden layers with no nonlinearity between them, built from raw variables, trained with Adam.

Idioms: string-typed placeholders (`"float"`); weights and biases as `tf.Variable(tf.random_normal(...))` kept
in lists; `tf.add(tf.matmul(...))` layers; `softmax_cross_entropy_with_logits` averaged by `reduce_mean`;
`AdamOptimizer(learning_rate=...)`; the train op and the loss fetched together; ops built inside the session
after training (`tf.nn.softmax`, `tf.equal`, `tf.cast(..., "float")`) evaluated with `Tensor.eval`.
"""
import tensorflow as tf

import corpus_data

digits = corpus_data.mnist(one_hot=True)
SIZES = [784, 256, 256, 10]
EPOCHS, CHUNK = 10, 100

inputs = tf.placeholder("float", [None, SIZES[0]])
wanted = tf.placeholder("float", [None, SIZES[-1]])
kernels = [tf.Variable(tf.random_normal([a, b])) for a, b in zip(SIZES, SIZES[1:])]
offsets = [tf.Variable(tf.random_normal([b])) for b in SIZES[1:]]

flow = inputs
for kernel, offset in zip(kernels, offsets):
    flow = tf.add(tf.matmul(flow, kernel), offset)  # purely linear: the layers only reshape the map
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=flow, labels=wanted))
update = tf.train.AdamOptimizer(learning_rate=0.001).minimize(loss)

with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    chunks = digits.train.num_examples // CHUNK
    for epoch in range(EPOCHS):
        running = 0.0
        for _ in range(chunks):
            xs, ys = digits.train.next_batch(CHUNK)
            running += session.run([update, loss], feed_dict={inputs: xs, wanted: ys})[1] / chunks
        print("epoch %02d average loss %.9f" % (epoch + 1, running))
    agree = tf.equal(tf.argmax(tf.nn.softmax(flow), 1), tf.argmax(wanted, 1))
    print("share correct:", tf.reduce_mean(tf.cast(agree, "float")).eval(
        {inputs: digits.test.images, wanted: digits.test.labels}))
