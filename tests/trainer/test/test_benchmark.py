"""tf.test.Benchmark: a kernel test file's benchmark class beside its tests is not collected as a test, and its
run_op_benchmark times an op in a session and reports it."""
import unittest

import pytest

import trainer as tg
from trainer.python.platform import benchmark, test


class MatmulBenchmark(test.Benchmark):
    def benchmarkMatmul(self):
        with tg.Graph().as_default(), tg.Session(config=benchmark.benchmark_config()) as sess:
            x = tg.ones([8, 8])
            return self.run_op_benchmark(sess, tg.matmul(x, x), min_iters=3, name="matmul_8")


def test_a_benchmark_is_not_a_test_case():
    assert not issubclass(MatmulBenchmark, unittest.TestCase)
    assert unittest.TestLoader().loadTestsFromModule(__import__(__name__, fromlist=["_"])).countTestCases() == 0


def test_run_op_benchmark_times_the_op_and_reports_it(capsys):
    result = MatmulBenchmark().benchmarkMatmul()
    assert result["iters"] == 3 and result["wall_time"] > 0
    assert "matmul_8" in capsys.readouterr().out


def test_evaluate_needs_a_default_session():
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="no default session|there is none"):
            MatmulBenchmark().evaluate(tg.constant(1.0))
        with tg.Session() as sess, sess.as_default():
            assert MatmulBenchmark().evaluate(tg.constant(2.0)) == 2.0
