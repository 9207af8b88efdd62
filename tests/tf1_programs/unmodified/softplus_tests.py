"""An unmodified TensorFlow 1 test file, as TF1 users write tests of their ops: tf.test.TestCase classes with
`with self.test_session() as sess`, the array asserts, the gradient checker, and tf.test.main().

The tests run it with `python -m trainer.as_tensorflow softplus_tests.py` and under `mpiexec -n 2`;
--wrong_gradient builds a softplus whose gradient is wrong on purpose, which testGradient must catch.
"""
import numpy as np
import tensorflow as tf
from tensorflow.python.framework import test_util
from tensorflow.python.platform import test

tf.flags.DEFINE_boolean("wrong_gradient", False, "halve the gradient through the exp, so testGradient fails")
FLAGS = tf.flags.FLAGS


def softplus(x):
    """log(1 + exp(x)), written with the public ops."""
    e = tf.exp(x)
    if FLAGS.wrong_gradient:  # the same value, half the gradient
        e = 0.5 * e + tf.stop_gradient(0.5 * e)
    return tf.log(1.0 + e)


def np_softplus(x):
    return np.log1p(np.exp(x))


class SoftplusTest(tf.test.TestCase):

    def testValues(self):
        x = np.array([[-2.0, -0.5, 0.0], [0.5, 1.0, 3.0]], dtype=np.float32)
        with self.test_session() as sess:
            y = softplus(tf.constant(x))
            self.assertShapeEqual(x, y)
            self.assertAllCloseAccordingToType(np_softplus(x), sess.run(y))
            self.assertAllGreater(y, 0.0)

    def testFeedAndEval(self):
        with self.test_session():
            x = tf.placeholder(tf.float64, [None])
            y = softplus(x)
            values = y.eval(feed_dict={x: [0.0, 1.0]})
            self.assertDTypeEqual(values, np.float64)
            self.assertArrayNear(values, [np.log(2.0), np.log1p(np.e)], 1e-12)

    def testGradient(self):
        with self.test_session():
            x_init = np.array([-1.5, -0.25, 0.3, 2.0])
            x = tf.constant(x_init, dtype=tf.float64)
            y = softplus(x)
            error = tf.test.compute_gradient_error(x, [4], y, [4], x_init_value=x_init)
            print("softplus gradient error %g" % error)
            self.assertLess(error, 1e-6)

    def testNanIsAnOpError(self):
        with self.test_session():
            checked = tf.check_numerics(softplus(tf.constant([np.nan])), "softplus of nan")
            with self.assertRaisesOpError("softplus of nan"):
                checked.eval()


class GraphPerTestTest(test_util.TensorFlowTestCase):

    @test_util.run_deprecated_v1
    def testStartsFromAnEmptyGraph(self):
        self.assertEqual(tf.get_default_graph().get_operations(), [])
        tf.constant(1.0, name="left_over")  # the next test must not see it

    def testStartsFromAnEmptyGraphToo(self):
        self.assertEqual(tf.get_default_graph().get_operations(), [])
        tf.constant(1.0, name="left_over")


if __name__ == "__main__":
    test.main()
