"""Train a ReLU perceptron, checkpoint it, and carry on training from the checkpoint in a fresh session.

Idioms: `tf.train.Saver()` made after the graph; `saver.save(sess, path)` returning the path it wrote;
a second `tf.Session` that runs the initializer and then `saver.restore`, so the restored values win; Adam's
slot variables saved and restored with the weights; `Tensor.eval` for accuracy in both sessions.
"""
import tensorflow as tf

import corpus_data

digits = corpus_data.mnist(one_hot=True)
CHECKPOINT = "model.ckpt"
CHUNK = 100

pixels = tf.placeholder("float", [None, 784])
labels = tf.placeholder("float", [None, 10])
params = {}
for name, shape in (("in", [784, 256]), ("mid", [256, 256]), ("top", [256, 10])):
    params[name] = (tf.Variable(tf.random_normal(shape)), tf.Variable(tf.random_normal(shape[1:])))

activity = pixels
for name in ("in", "mid"):
    activity = tf.nn.relu(tf.add(tf.matmul(activity, params[name][0]), params[name][1]))
logits = tf.matmul(activity, params["top"][0]) + params["top"][1]
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=labels))
adam = tf.train.AdamOptimizer(learning_rate=0.001).minimize(loss)
correct = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(labels, 1)), "float"))
keeper = tf.train.Saver()


def train(session, epochs, tag):
    chunks = digits.train.num_examples // CHUNK
    for epoch in range(epochs):
        total = 0.0
        for _ in range(chunks):
            xs, ys = digits.train.next_batch(CHUNK)
            total += session.run([adam, loss], {pixels: xs, labels: ys})[1]
        print("%s epoch %d mean loss %.9f" % (tag, epoch + 1, total / chunks))
    print("%s test share correct: %s" % (tag, correct.eval({pixels: digits.test.images,
                                                             labels: digits.test.labels})))


with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    train(session, 2, "first")
    written = keeper.save(session, CHECKPOINT)
    print("checkpoint written to %s" % written)

print("--- fresh session ---")
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    keeper.restore(session, CHECKPOINT)
    print("checkpoint read from %s" % CHECKPOINT)
    train(session, 3, "resumed")
