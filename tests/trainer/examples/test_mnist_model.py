"""tensorflow.examples.tutorials.mnist.mnist, the model TF1's fully_connected_feed.py imports: TF1's variable names
and shapes, a loss in tf.losses' collection, a training op that counts steps and summarizes the loss, and
evaluation's count of correct predictions."""
import numpy as np

import trainer as tg
from trainer.examples.tutorials.mnist import mnist


def test_the_model_has_tf1s_names_learns_and_counts_correct_predictions():
    rng = np.random.default_rng(0)
    labels = rng.integers(0, mnist.NUM_CLASSES, 40).astype(np.int32)
    images = np.eye(mnist.NUM_CLASSES, mnist.IMAGE_PIXELS, dtype=np.float32)[labels] * 3
    with tg.Graph().as_default():
        tg.set_random_seed(1)
        x = tg.placeholder(tg.float32, [None, mnist.IMAGE_PIXELS])
        y = tg.placeholder(tg.int32, [None])
        logits = mnist.inference(x, 16, 8)
        loss = mnist.loss(logits, y)
        train_op = mnist.training(loss, 0.5)
        correct = mnist.evaluation(logits, y)
        shapes = {v.name: v.shape.as_list() for v in tg.global_variables()}
        assert shapes == {"hidden1/weights:0": [784, 16], "hidden1/biases:0": [16],
                          "hidden2/weights:0": [16, 8], "hidden2/biases:0": [8],
                          "softmax_linear/weights:0": [8, 10], "softmax_linear/biases:0": [10], "global_step:0": []}
        assert tg.get_collection(tg.GraphKeys.LOSSES) == [loss]
        assert len(tg.get_collection(tg.GraphKeys.SUMMARIES)) == 1
        feed = {x: images, y: labels}
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            first, scores, before = sess.run([loss, logits, correct], feed)
            assert before == np.sum(scores.argmax(1) == labels)  # the top prediction only (in_top_k's k = 1)
            for _ in range(200):
                sess.run(train_op, feed)
            assert sess.run(loss, feed) < first / 10
            assert sess.run(correct, feed) == len(labels)
            assert sess.run("global_step:0") == 200
