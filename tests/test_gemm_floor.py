"""scripts/gemm_floor.py: the forms of a product it times are that product, and the im2col layouts it times gather
the columns of the same convolution as ringflow's kernel."""
import os
import sys

import numpy as np
import pytest

from trainer.ops.kernels import conv, gemm

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
_ENVIRON = dict(os.environ)
import gemm_floor  # noqa: E402
# the script sets one BLAS thread in os.environ for the processes it starts; the tests after this one (launch lines
# that forward the environment) must see the suite's own
os.environ.clear()
os.environ.update(_ENVIRON)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("a_order, b_order", [("C", "C"), ("F", "C"), ("C", "F")])
def test_every_form_is_the_product_in_c_order(dtype, a_order, b_order):
    rng = np.random.default_rng(0)
    a = np.asarray(rng.standard_normal((7, 5)), dtype=dtype, order=a_order)
    b = np.asarray(rng.standard_normal((5, 3)), dtype=dtype, order=b_order)
    names = []
    for name, make, gemm in gemm_floor.forms(a, b):
        product = gemm(*make())
        assert product.flags.c_contiguous, name
        np.testing.assert_allclose(product, a @ b, rtol=1e-5 if dtype == np.float32 else 1e-12, err_msg=name)
        names.append(name)
    assert len(set(names)) == 8


@pytest.mark.parametrize("c", [1, 3, 8])
def test_each_layout_gathers_the_convolution_of_the_kernel(c):
    rng = np.random.default_rng(1)
    n, h, w, k, o = 3, 6, 5, 3, 4
    x = rng.standard_normal((n, h, w, c)).astype(np.float32)
    filters = rng.standard_normal((k, k, c, o)).astype(np.float32)
    expected = conv.conv2d(x, filters, (1, 1), "SAME").reshape(-1, o)
    xpad = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    buf = np.empty(n * h * w * k * k * c, np.float32)
    layouts = {"rows": (gemm_floor.gather_rows(xpad, k, h, w, buf.copy()), filters.reshape(-1, o)),
               "rows, cin first": (gemm_floor.gather_rows(xpad, k, h, w, buf.copy(), cin_first=True),
                                   filters.transpose(2, 0, 1, 3).reshape(-1, o)),
               "tap-major": (gemm_floor.gather_tap_major(xpad, k, h, w, buf.copy()), filters.reshape(-1, o))}
    for name, (cols, w2) in layouts.items():
        np.testing.assert_allclose(cols @ w2, expected, rtol=1e-5, atol=1e-5, err_msg=name)


def test_conv_layers_follow_the_bench_models():
    assert gemm_floor.conv_layers("lenet") == [("conv1", (64, 28, 28, 1), 5, 32), ("conv2", (64, 14, 14, 32), 5, 64),
                                               ("conv2 dX", (64, 14, 14, 64), 5, 32)]


def _recorder(monkeypatch):
    for module, name in ((np, "dot"), (np, "matmul"), (gemm.StepProducts, "add"), (gemm, "dot_add"),
                         (gemm, "product_adder"), (gemm, "direct_product")):
        monkeypatch.setattr(module, name, getattr(module, name))  # the recorder's wrappers go at teardown
    return gemm_floor.Recorder()


def _records_each_filter_row(recorder):
    """A 3x3 SAME convolution of 8-channel images by row windows, recorded: three products, each with the rows of the
    slice it reads and its filter row, the covering one first."""
    rng = np.random.default_rng(2)
    x, w = rng.standard_normal((2, 5, 4, 8)).astype(np.float32), rng.standard_normal((3, 3, 8, 6)).astype(np.float32)
    recorder.recording = True
    conv.conv2d(x, w, (1, 1), "SAME")
    recorder.recording = False
    assert [(a.shape, b.shape) for _, a, b, _ in recorder.calls] == [((40, 24), (24, 6)), ((32, 24), (24, 6)),
                                                                      ((32, 24), (24, 6))]
    for (_, _, b, _), row in zip(recorder.calls, (1, 0, 2)):
        np.testing.assert_array_equal(b, w[row].reshape(24, 6))


def test_the_recorder_sees_the_filter_rows_a_row_window_convolution_adds(monkeypatch):
    """A 3x3 SAME convolution of 8-channel images by row windows: one numpy.dot for the filter row that covers every
    output row, and a product_adder call for each of the two others, recorded with their operands."""
    monkeypatch.setattr(gemm, "direct_product", lambda dtype, m, n, k: None)  # its own test below
    recorder = _recorder(monkeypatch)
    if gemm.product_adder(np.float32) is None:
        pytest.skip("numpy's BLAS is not OpenBLAS with a CBLAS GEMM for float32")
    _records_each_filter_row(recorder)


def test_the_recorder_sees_the_products_sgemm_direct_makes(monkeypatch):
    """The same convolution with sgemm_direct's boxes open to any size: each filter row's product through
    direct_product, recorded with its operands (the rows of the slice each reads, the filter row); where OpenBLAS
    runs no AVX-512 kernels they are a numpy.dot and two product_adder calls, recorded too."""
    monkeypatch.setattr(gemm, "DIRECT_BOXES", {6: 0})
    recorder = _recorder(monkeypatch)
    _records_each_filter_row(recorder)
