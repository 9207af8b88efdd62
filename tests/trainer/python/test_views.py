"""The tensorflow.python.* modules TF's own kernel tests import (framework.constant_op, ops.math_ops,
ops.gradient_checker, ...): each name is the tf.* namespace's very object, a name ringflow lacks says where it
looked, and a TF-style op test written on those paths alone runs."""
import numpy as np
import pytest

import trainer as tg
from trainer.python.eager import context
from trainer.python.framework import constant_op, dtypes, errors, tensor_shape, test_util
from trainer.python.ops import array_ops, gradient_checker, math_ops, nn_grad, nn_ops, variables
from trainer.python.platform import googletest, test
from trainer.python.training import training
from trainer.unsupported import NotInRingflow


@pytest.mark.parametrize("module, name, expected", [
    (math_ops, "argmax", lambda: tg.argmax), (math_ops, "reduce_sum", lambda: tg.reduce_sum),
    (math_ops, "divide_no_nan", lambda: tg.math.divide_no_nan),  # only under tf.math: the view's second namespace
    (array_ops, "placeholder", lambda: tg.placeholder), (nn_ops, "relu", lambda: tg.nn.relu),
    (constant_op, "constant", lambda: tg.constant), (dtypes, "float32", lambda: tg.float32),
    (dtypes, "as_dtype", lambda: tg.as_dtype), (errors, "InvalidArgumentError", lambda: tg.errors.InvalidArgumentError),
    (gradient_checker, "compute_gradient_error", lambda: tg.test.compute_gradient_error),
    (variables, "Variable", lambda: tg.Variable), (googletest, "TestCase", lambda: tg.test.TestCase),
    (training, "AdamOptimizer", lambda: tg.train.AdamOptimizer), (tensor_shape, "TensorShape", lambda: tg.TensorShape),
])
def test_each_name_is_the_tf_namespaces_own_object(module, name, expected):
    assert getattr(module, name) is expected()
    assert name in dir(module)


def test_a_name_no_namespace_has_says_where_ringflow_looked():
    with pytest.raises(NotInRingflow, match=r"math_ops\.no_such_op .*looks its names up in tf, tf\.math, tf\.linalg"):
        math_ops.no_such_op
    assert not hasattr(nn_grad, "ReluGrad")  # gradients come with their ops: the side-effect module holds nothing


def test_the_eager_context_is_graph_mode_always():
    with context.graph_mode():
        assert context.executing_eagerly() is False and tg.constant(1.0).graph is tg.get_default_graph()
    with pytest.raises(NotImplementedError, match="eager execution is not available"):
        context.eager_mode()


def test_the_import_system_finds_them_by_their_tensorflow_names():
    import importlib
    import trainer.as_tensorflow
    assert trainer.as_tensorflow.target_of("tensorflow.python.ops.math_ops") == "trainer.python.ops.math_ops"
    assert importlib.util.find_spec("trainer.python.ops.math_ops") is not None


class KernelStyleTest(test.TestCase):
    """An op test in the style of TF's kernel_tests, written on the tensorflow.python paths alone."""

    def runTest(self):
        with self.cached_session():
            x = constant_op.constant([[1.0, -2.0], [3.0, 0.5]], dtype=dtypes.float64)
            y = math_ops.reduce_sum(nn_ops.relu(x) * x, axis=1)
            self.assertAllClose(self.evaluate(y), [1.0, 9.25])
            self.assertLess(gradient_checker.compute_gradient_error(x, [2, 2], y, [2]), 1e-6)
            self.assertEqual(array_ops.shape(x).eval().tolist(), [2, 2])
        if not test_util.is_xla_enabled():
            with self.assertRaisesOpError(r"Reduction axis 0 is empty in shape \[0\]"):
                self.evaluate(math_ops.argmax(np.zeros(0, np.float32), 0))


def test_a_kernel_style_test_passes():
    result = KernelStyleTest().run()
    assert result.wasSuccessful(), result.failures + result.errors
