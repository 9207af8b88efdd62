"""a @ bᵀ turned around where OpenBLAS's AVX-512 kernels run it faster (trainer/ops/kernels/gemm.py): numpy's
product within rounding, a fresh C-order result that the fused BiasAdd and Relu can write into, on every shape."""
import os
import subprocess
import sys

import numpy as np
import pytest

import trainer as tg
from trainer.ops.kernels import gemm

RNG = np.random.default_rng(11)
# (rows, deep, wide): inside the box where the swap is taken, on each of its edges, and outside it each way
SHAPES = [(64, 1024, 3136), (32, 256, 4096), (1, 256, 1024), (64, 256, 1024), (65, 256, 1024), (64, 255, 1024),
          (64, 256, 1023), (3, 5, 7)]


def _reference(a, b):
    """a @ bᵀ in float64 and the bound float32 rounding puts on each entry of the product of a and b."""
    exact = a.astype(np.float64) @ b.astype(np.float64).T
    bound = a.shape[1] * np.finfo(a.dtype).eps * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64).T)
    return exact, bound


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_dot_nt_is_the_product_in_c_order(shape, dtype):
    m, k, n = shape
    a, b = RNG.standard_normal((m, k)).astype(dtype), RNG.standard_normal((n, k)).astype(dtype)
    value = gemm.dot_nt(a, b)
    exact, bound = _reference(a, b)
    assert value.dtype == dtype and value.shape == (m, n)
    assert np.all(np.abs(value - exact) <= bound)
    assert value.flags.c_contiguous and value.flags.writeable and not np.shares_memory(value, a)
    if dtype == np.float64:  # outside the measured float32 box: numpy's own product, to the bit
        np.testing.assert_array_equal(value, np.dot(a, b.T))


def test_dot_nt_takes_fortran_and_strided_operands():
    a = np.asfortranarray(RNG.standard_normal((16, 512)).astype(np.float32))
    b = RNG.standard_normal((2048, 1024)).astype(np.float32)[:, ::2]
    exact, bound = _reference(a, b)
    assert np.all(np.abs(gemm.dot_nt(a, b) - exact) <= bound)


@pytest.mark.parametrize("swap", [False, True], ids=["as_is", "swapped"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dense_input_gradient_and_fused_layer_through_a_session(monkeypatch, dtype, swap):
    """LeNet's fc1 shapes, with the swap forced on (any BLAS) or off: the input gradient g @ Wᵀ and a dense ReLU
    layer on top of it (MatMul -> BiasAdd -> Relu, one fused step writing into the product) within rounding."""
    monkeypatch.setattr(gemm, "SWAP_PAYS", swap)
    g, w, bias = (RNG.standard_normal(s).astype(dtype) for s in [(64, 1024), (3136, 1024), (3136,)])
    exact, bound = _reference(g, w)
    with tg.Graph().as_default():
        product = tg.matmul(tg.placeholder(dtype, [None, 1024], name="g"), tg.constant(w), transpose_b=True)
        layer = tg.nn.relu(tg.nn.bias_add(tg.matmul(tg.placeholder(dtype, [None, 1024], name="h"), tg.constant(w),
                                                    transpose_b=True), tg.constant(bias)))
        with tg.Session() as sess:
            for _ in range(2):  # the second run reuses the plan and its kernels
                value, dense = sess.run([product, layer], {"g:0": g, "h:0": g})
                assert np.all(np.abs(value - exact) <= bound)
                np.testing.assert_allclose(dense, np.maximum(exact + bias, 0), rtol=0, atol=bound.max() * 2)


def test_openblas_core_names_the_kernels_openblas_coretype_pins():
    if gemm.openblas_core() is None:
        pytest.skip("numpy's BLAS here is not its bundled OpenBLAS")
    code = "from trainer.ops.kernels import gemm; print(gemm.openblas_core(), gemm.SWAP_PAYS)"
    env = dict(os.environ, OPENBLAS_CORETYPE="Haswell")
    root = os.path.dirname(os.path.dirname(os.path.abspath(tg.__file__)))
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["Haswell", "False"]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("shape", [(28, 512, 157, 64), (3, 5, 7, 2), (2, 4, 3, 0), (0, 4, 3, 5)], ids=str)
def test_step_products_sum_every_step_added_in_any_order(shape, dtype):
    """BLAS adds each step's product into out (numpy's dot where BLAS does not take the dtype, float16 here): the
    sum of the steps added, each once, within the products' rounding; a step never added is not in it."""
    steps, m, n, k = shape
    a, b = RNG.standard_normal((steps, m, k)).astype(dtype), RNG.standard_normal((steps + 1, n, k)).astype(dtype)
    products = gemm.StepProducts(a, b)
    added = list(reversed(range(steps)))[:max(steps - 1, 0)] if steps > 2 else list(range(steps))
    for t in added:
        products.add(t)
    exact = sum((a[t].astype(np.float64) @ b[t].astype(np.float64).T for t in added), np.zeros((m, n)))
    bound = sum((np.abs(a[t]).astype(np.float64) @ np.abs(b[t]).astype(np.float64).T for t in added), np.zeros((m, n)))
    assert products.out.shape == (m, n) and products.out.dtype == dtype
    assert np.all(np.abs(products.out - exact) <= (k * len(added) + 1) * np.finfo(dtype).eps * bound)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("one_step", ["a", "b"])
def test_step_products_of_a_one_step_operand_written_before_each_step(one_step, dtype):
    """A one-step operand serves every step of the other: each add(t) takes what it holds then (BLAS, or numpy's dot
    for float16). A one-step b is the host LSTM's weight gradient, [depth + units + 1, 4 * units], where the gates'
    gradient is kept one step at a time. The steps are those of the other operand: a's 6 with a one-step b."""
    steps = RNG.standard_normal((5, 4, 3)).astype(dtype)
    other = RNG.standard_normal((6 if one_step == "b" else 5, 5, 3)).astype(dtype)
    held = np.empty((1, 4, 3), dtype)
    a, b = (held, other) if one_step == "a" else (other, held)
    products = gemm.StepProducts(a, b)

    def product(t, step):
        x, y = (steps[step], other[t]) if one_step == "a" else (other[t], steps[step])
        return x.astype(np.float64) @ y.astype(np.float64).T
    for t in reversed(range(5)):
        held[0] = steps[t]
        products.add(t)
    exact = sum(product(t, t) for t in range(5))
    tolerance = dict(rtol=1e-2, atol=1e-2) if dtype == np.float16 else dict(rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(products.out, exact, **tolerance)
    if one_step == "b":
        products.add(5)  # a's last step, with what b holds now
        np.testing.assert_allclose(products.out, exact + product(5, 0), **tolerance)
    with pytest.raises(IndexError, match=rf"StepProducts.add\({len(other)}\): a step in \[0, {len(other)}\)"):
        products.add(len(other))


def test_step_products_refuse_a_step_outside_the_operands():
    a, b = np.ones((3, 4, 2), np.float32), np.ones((2, 5, 2), np.float32)
    products = gemm.StepProducts(a, b)
    for t in (-1, 2, 3):
        with pytest.raises(IndexError, match=r"StepProducts.add\(%d\): a step in \[0, 2\)" % t):
            products.add(t)
    products.add(1)
    np.testing.assert_array_equal(products.out, np.full((4, 5), 2, np.float32))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("orders", ["CC", "FC", "CF", "FF"])
def test_dot_add_adds_alpha_times_the_product_in_place(orders, dtype):
    """out += alpha * a @ b in one BLAS call, on operands in either memory order and an out inside a larger array."""
    a, b = RNG.standard_normal((37, 23)).astype(dtype), RNG.standard_normal((23, 19)).astype(dtype)
    a, b = (np.asfortranarray(m) if order == "F" else m for m, order in zip((a, b), orders))
    whole = RNG.standard_normal((40, 25)).astype(dtype)
    start, out = whole.copy(), whole[2:39, 3:22]
    exact = start[2:39, 3:22].astype(np.float64) - 0.5 * (a.astype(np.float64) @ b.astype(np.float64))
    bound = 4 * np.finfo(dtype).eps * (np.abs(start[2:39, 3:22]) + 0.5 * np.abs(a).astype(np.float64) @ np.abs(b))
    if gemm.dot_add(a, b, out, -0.5) is None:
        pytest.skip("numpy's BLAS is not OpenBLAS with a CBLAS GEMM for this dtype")
    assert np.all(np.abs(out - exact) <= bound)
    outside = np.ones(whole.shape, bool)
    outside[2:39, 3:22] = False
    np.testing.assert_array_equal(whole[outside], start[outside])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_product_adder_adds_the_product_at_the_addresses_given(dtype):
    """out += a @ b on C-contiguous operands given by address: rows 3-9 of a buffer, the rest of it untouched."""
    add = gemm.product_adder(dtype)
    if add is None:
        pytest.skip("numpy's BLAS is not OpenBLAS with a CBLAS GEMM for this dtype")
    a, b = RNG.standard_normal((7, 23)).astype(dtype), RNG.standard_normal((23, 5)).astype(dtype)
    whole = RNG.standard_normal((12, 5)).astype(dtype)
    start = whole.copy()
    add(7, 5, 23, a.ctypes.data, b.ctypes.data, whole.ctypes.data + 3 * 5 * whole.itemsize)
    exact = start[3:10].astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)
    bound = 4 * np.finfo(dtype).eps * (np.abs(start[3:10]) + np.abs(a).astype(np.float64) @ np.abs(b))
    assert np.all(np.abs(whole[3:10] - exact) <= bound)
    np.testing.assert_array_equal(np.delete(whole, range(3, 10), axis=0), np.delete(start, range(3, 10), axis=0))
    assert gemm.product_adder(np.float16) is None


def test_dot_add_declines_what_blas_cannot_take():
    a, b = RNG.standard_normal((4, 3)), RNG.standard_normal((3, 5))
    out = np.zeros((4, 5))
    assert gemm.dot_add(a.astype(np.float16), b.astype(np.float16), out.astype(np.float16)) is None
    assert gemm.dot_add(a, b.astype(np.float32), out) is None
    square = RNG.standard_normal((4, 4))
    assert gemm.dot_add(square, square, square) is None  # out overlapping an operand
    assert gemm.dot_add(a, b, out[:, ::-1]) is None
    np.testing.assert_array_equal(out, 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("alpha", [1.0, 0.5, -3.25, 0.0])
@pytest.mark.filterwarnings("ignore:invalid value encountered in multiply")
def test_transpose_into_writes_alpha_times_the_transpose_to_the_bit(dtype, alpha):
    """Column blocks of a C-order weight into row blocks of a wider buffer (the host LSTM's scaled weights, BLAS's
    copy), a Fortran-order source (numpy's): each element is numpy's alpha * a, rounded once, NaN and infinity
    included; the rest untouched."""
    w = RNG.standard_normal((7, 12)).astype(dtype)
    w[2, 3], w[4, 5] = np.nan, np.inf
    out = np.full((12, 8), 9, dtype)
    for block in range(3):
        gemm.transpose_into(w[:, 4 * block:4 * block + 4], out[4 * block:4 * block + 4, :7], alpha)
    np.testing.assert_array_equal(out[:, :7], np.multiply(w.T, dtype(alpha)))
    np.testing.assert_array_equal(out[:, 7], 9)
    fortran = np.asfortranarray(w)
    np.testing.assert_array_equal(gemm.transpose_into(fortran, np.empty((12, 7), dtype), alpha),
                                  np.multiply(w.T, dtype(alpha)))



AVX512 = gemm.openblas_core() in gemm.AVX512_CORES
# (M, K, N, steps): the LSTM's forward and backward GEMMs at 128 units, batch 64; the N = 32 box's edge; the N = 64
# box's least M·K
DIRECT_SHAPES = [(512, 157, 64, 3), (128, 512, 64, 2), (256, 512, 32, 2), (256, 128, 64, 1)]


def _strided(rng, shape, pad):
    """A float32 array of `shape` whose rows lie `pad` elements apart beyond their length (a view of a wider one)."""
    return rng.standard_normal((*shape[:-1], shape[-1] + pad)).astype(np.float32)[..., :shape[-1]]


@pytest.mark.skipif(not (AVX512 and gemm.openblas_threads() == 1), reason="sgemm_direct is taken only where "
                    "OpenBLAS runs its AVX-512 kernels, these shapes with one OpenBLAS thread (scripts/test.sh's)")
@pytest.mark.parametrize("pad", [0, 3])
@pytest.mark.parametrize("shape", DIRECT_SHAPES, ids=str)
def test_step_dot_writes_each_step_product_within_float32_rounding(shape, pad):
    m, k, n, steps = shape
    assert gemm.direct_taken(m, n, k)
    rng = np.random.default_rng(5)
    a, b, out = _strided(rng, (m, k), pad), _strided(rng, (steps, k, n), pad), _strided(rng, (steps + 1, m, n), pad)
    whole = out.base.copy() if pad else out.copy()
    product = gemm.step_dot(a, b, out)
    assert product is not None, "in the measured box, on AVX-512 kernels, sgemm_direct is taken"
    for t in range(steps):
        product(t, t + 1)  # each step's product into the next slot: the slots are the caller's to pick
        exact, bound = _reference(a, b[t].T)
        assert np.all(np.abs(out[t + 1] - exact) <= bound), t
    written = np.zeros(whole.shape, bool)
    written[1:, :, :n] = True
    np.testing.assert_array_equal((out.base if pad else out)[~written], whole[~written])  # nothing else written


@pytest.mark.parametrize("case", ["float64", "N = 48", "N = 8", "M·K under the box", "output over an operand",
                                  "b's columns unit-stride"])
def test_step_dot_declines_outside_its_box(case):
    rng = np.random.default_rng(6)
    a, b, out = (rng.standard_normal(shape).astype(np.float32) for shape in ((512, 157), (2, 157, 64), (2, 512, 64)))
    assert (gemm.step_dot(a, b, out) is not None) == (AVX512 and gemm.openblas_threads() == 1)
    if case == "float64":
        a, b, out = (x.astype(np.float64) for x in (a, b, out))
    elif case.startswith("N = "):
        width = int(case[4:])
        b, out = b[..., :width], out[..., :width]
    elif case == "M·K under the box":
        a, b, out = a[:64, :64], b[:, :64], out[:, :64]
    elif case == "output over an operand":
        out = np.lib.stride_tricks.as_strided(a, (2, 512, 64), (0, 157 * 4, 4))
    else:
        b = np.asfortranarray(b.transpose(0, 2, 1)).transpose(0, 2, 1)
    assert gemm.step_dot(a, b, out) is None


def test_step_dot_only_where_openblas_runs_avx512_kernels():
    """sgemm_direct is SkylakeX code: it must never run where OpenBLAS picked other kernels (on an AVX2 machine it
    would fault), which OpenBLAS's core name says; the default environment here pins Haswell, CI's does not."""
    code = ("import numpy as np; from trainer.ops.kernels import gemm; "
            "a, b, out = (np.ones(s, np.float32) for s in ((512, 157), (2, 157, 64), (2, 512, 64))); "
            "print(gemm.openblas_core(), gemm.step_dot(a, b, out) is not None, "
            "gemm.direct_product(np.float32, 1568, 64, 160) is not None)")
    root = os.path.dirname(os.path.dirname(os.path.abspath(tg.__file__)))
    env = dict(os.environ, OPENBLAS_CORETYPE="Haswell", OPENBLAS_NUM_THREADS="1")
    assert subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True,
                          check=True).stdout.split() == ["Haswell", "False", "False"]
    if AVX512 and gemm.openblas_threads() == 1:
        assert gemm.direct_taken(512, 64, 157), "numpy's OpenBLAS exports sgemm_direct_SKYLAKEX on AVX-512 kernels"


ONE_THREAD = gemm.openblas_threads() == 1


def test_openblas_threads_reads_the_thread_count_openblas_runs():
    code = "from trainer.ops.kernels import gemm; print(gemm.openblas_threads())"
    root = os.path.dirname(os.path.dirname(os.path.abspath(tg.__file__)))
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    assert subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True,
                          check=True).stdout.split() == ["None" if gemm.OPENBLAS is None else "1"]


# (M, K, N): LeNet's products past sgemm_direct_performant's size limit: its second layer's row windows forward and
# backward, their filter gradient on windows gathered transposed, fc1's W @ gᵀ, the first layer's filter gradient
DIRECT_PRODUCTS = [(1568, 160, 64), (784, 320, 32), (160, 1568, 64), (3136, 1024, 64), (25, 10192, 32)]


@pytest.mark.skipif(not (AVX512 and ONE_THREAD), reason="past OpenBLAS's own limit sgemm_direct is taken only on its "
                                                         "AVX-512 kernels with one OpenBLAS thread")
@pytest.mark.parametrize("shape", DIRECT_PRODUCTS, ids=str)
def test_direct_product_writes_the_product_at_the_addresses_given(shape):
    """Into rows 3.. of a wider buffer, operands' rows apart by more than their length, and a product a row and two
    of depth short of the one asked about (a convolution's tap): within float32 rounding, nothing else written."""
    m, k, n = shape
    mul = gemm.direct_product(np.float32, m, n, k)
    assert mul is not None, "in the measured box, on AVX-512 kernels with one thread, sgemm_direct is taken"
    rng = np.random.default_rng(7)
    a, b = _strided(rng, (m, k), 3), _strided(rng, (k, n), 5)
    whole = rng.standard_normal((m + 4, n + 2)).astype(np.float32)
    start = whole.copy()
    mul(m - 1, k - 2, a.ctypes.data, k + 3, b.ctypes.data, n + 5, whole.ctypes.data + 3 * (n + 2) * 4, n + 2)
    exact, bound = _reference(a[:m - 1, :k - 2], b[:k - 2].T)
    assert np.all(np.abs(whole[3:m + 2, :n] - exact) <= bound)
    written = np.zeros(whole.shape, bool)
    written[3:m + 2, :n] = True
    np.testing.assert_array_equal(whole[~written], start[~written])


@pytest.mark.parametrize("case", ["float64", "N = 48", "M·K under the box", "B over DIRECT_PANEL_BYTES",
                                  "two OpenBLAS threads"])
def test_direct_product_declines_outside_its_box(case, monkeypatch):
    m, n, k, dtype = 1568, 64, 160, np.float32
    assert (gemm.direct_product(dtype, m, n, k) is not None) == (AVX512 and ONE_THREAD)
    if case == "float64":
        dtype = np.float64
    elif case == "N = 48":
        n = 48
    elif case == "M·K under the box":
        m, k = 128, 255
    elif case == "B over DIRECT_PANEL_BYTES":
        m, k = 64, gemm.DIRECT_PANEL_BYTES // (4 * n) + 1
    else:  # a threaded packed GEMM may win: OpenBLAS's own check declines the shape then
        monkeypatch.setattr(gemm, "openblas_threads", lambda: 2)
    assert gemm.direct_product(dtype, m, n, k) is None


def test_dot_nt_takes_sgemm_direct_for_lenets_fc1_input_gradient(monkeypatch):
    """g @ Wᵀ at fc1's shapes is W @ gᵀ on sgemm_direct where it may run (AVX-512 kernels, one thread), within
    rounding; a shape outside dot_nt's swap box does not ask."""
    asked, real = [], gemm.direct_product

    def direct_product(dtype, m, n, k):
        mul = real(dtype, m, n, k)
        asked.append(((m, n, k), mul is not None))
        return mul
    monkeypatch.setattr(gemm, "direct_product", direct_product)
    g, w = RNG.standard_normal((64, 1024)).astype(np.float32), RNG.standard_normal((3136, 1024)).astype(np.float32)
    value = gemm.dot_nt(g, w)
    exact, bound = _reference(g, w)
    assert np.all(np.abs(value - exact) <= bound) and value.flags.c_contiguous
    assert asked == [((3136, 64, 1024), AVX512 and ONE_THREAD)]
    gemm.dot_nt(RNG.standard_normal((65, 1024)).astype(np.float32), w)
    assert len(asked) == 1
