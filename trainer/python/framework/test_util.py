"""tensorflow.python.framework.test_util: TensorFlowTestCase (tf.test.TestCase), the GPU, XLA and MKL queries and
the test-mode decorators."""
# ruff: noqa: F401
from ...test.environment import gpu_device_name, is_gpu_available, is_mkl_enabled, is_xla_enabled
from ...test.environment import is_mkl_enabled as IsMklEnabled  # noqa: N812  (TF's older name of it)
from ...test.modes import (also_run_as_tf_function, deprecated_graph_mode_only, disable_xla, for_all_test_methods,
                           run_all_in_graph_and_eager_modes, run_deprecated_v1, run_in_graph_and_eager_modes,
                           run_v1_only, run_v2_only)
from ...test.testcase import TestCase as TensorFlowTestCase
