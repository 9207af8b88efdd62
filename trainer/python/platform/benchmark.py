"""tensorflow.python.platform.benchmark: tf.test.Benchmark and benchmark_config by TF's internal path."""
# ruff: noqa: F401
from ...test.benchmark import Benchmark, benchmark_config
