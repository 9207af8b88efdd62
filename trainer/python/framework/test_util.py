"""tensorflow.python.framework.test_util: TensorFlowTestCase (tf.test.TestCase), the GPU queries and the
test-mode decorators."""
# ruff: noqa: F401
from ...test.environment import gpu_device_name, is_gpu_available
from ...test.modes import (deprecated_graph_mode_only, run_all_in_graph_and_eager_modes, run_deprecated_v1,
                           run_in_graph_and_eager_modes, run_v1_only)
from ...test.testcase import TestCase as TensorFlowTestCase
