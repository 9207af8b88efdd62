"""The numeric names of tf.math, tf.linalg, tf.nn, tf.image, tf.signal, tf.bitwise and their top-level aliases,
checked against real TensorFlow: values over dtypes, static shapes with unknown and zero-size dims, gradients, and
TF's errors for bad input. Recorded into fixtures/tf_oracle_math.json (record_tf_oracle.py --family math)."""
import base64
import struct
import zlib

import numpy as np

from .cases import call, p, t

FLOATS = ["float32", "float64"]
# (function, domain of its input, differentiable): elementwise, so each runs over dtypes and odd shapes
UNARY = [("math.erf", "any", 1), ("math.erfc", "any", 1), ("math.lgamma", "pos", 1), ("math.digamma", "pos", 1),
         ("math.reciprocal_no_nan", "any", 1)]
BINARY = [("math.xlogy", 1), ("math.xdivy", 1), ("math.multiply_no_nan", 1)]
IMG = (1, 4, 4, 2)


def _elementwise():
    for fn, dom, grad in UNARY:
        for dtype in FLOATS + ["int32"]:
            yield f"{fn}/{dtype}", call(fn, t(dtype, dom=dom))
        yield f"{fn}/unknown_rank", call(fn, p("float32", None, (2, 3), dom))
        yield f"{fn}/zero_size", call(fn, t("float32", (0, 3), dom))
        if grad:
            yield f"{fn}/grad", call(fn, t("float64", dom=dom), grad=True)
    for fn, grad in BINARY:
        for dtype in FLOATS + ["int32"]:
            yield f"{fn}/{dtype}", call(fn, t(dtype, dom="pos"), t(dtype, dom="pos", salt=1))
        yield f"{fn}/zeros", call(fn, {"py": [0.0, 1.0, 2.0]}, t("float32", (2, 3), "any"))
        yield f"{fn}/zero_second", call(fn, t("float32", (2, 3), "any"), {"py": [0.0, 1.0, 2.0]})
        yield f"{fn}/unknown_dim", call(fn, p("float32", (None, 3), (2, 3), "pos"), t("float32", (3,), "pos"))
        yield f"{fn}/grad", call(fn, t("float64", (2, 3), "pos"), t("float64", (3,), "pos", 1), grad=True)
    yield "math.xlogy/grad_at_zero", call("math.xlogy", t("float64", (3,), "pos"), t("float64", (3,), "pos", 1),
                                          grad=True)


ROWS = [
    ("math.zeta", call("math.zeta", {"py": [2.0, 3.5, 6.0]}, t("float32", (2, 3), "pos"))),
    ("math.zeta/float64_grad", call("math.zeta", t("float64", (3,), "ge1"), t("float64", (2, 3), "pos"), grad=True)),
    ("math.zeta/below_one", call("math.zeta", {"py": [0.5, 1.0, 2.0]}, t("float32", (3,), "pos"))),
    ("math.polygamma", call("math.polygamma", t("float64", (3,), "idx4"), t("float64", (2, 3), "pos"), grad=True)),
    ("math.polygamma/float32", call("math.polygamma", {"py": [[1.0], [2.0]]}, t("float32", (2, 3), "pos"))),
    ("math.lbeta", call("math.lbeta", t("float64", (2, 3), "pos"), grad=True)),
    ("math.lbeta/float32", call("math.lbeta", t("float32", (4,), "pos"))),
    ("math.polyval", call("math.polyval", {"list": [t("float64", (3,), salt=1), t("float64", (3,), salt=2),
                                                    t("float64", (3,), salt=3)]}, t("float64", (3,)), grad=True)),
    ("math.polyval/python", call("math.polyval", {"list": [{"py": 2.0}, {"py": -1.0}]}, t("float32", (2, 2)))),
    ("math.reduce_variance", call("math.reduce_variance", t(), grad=True)),
    ("math.reduce_variance/axis", call("math.reduce_variance", t("float64"), axis=1, grad=True)),
    ("math.reduce_variance/keepdims", call("math.reduce_variance", p(), axis=0, keepdims=True)),
    ("math.reduce_variance/int", call("math.reduce_variance", t("int32"))),
    ("math.reduce_std", call("math.reduce_std", t("float64"), axis=-1, grad=True)),
    ("math.reduce_std/zero_size", call("math.reduce_std", t("float32", (0, 3)), axis=1)),
    ("math.is_non_decreasing", call("math.is_non_decreasing", {"py": [1, 2, 2, 5]})),
    ("math.is_non_decreasing/no", call("math.is_non_decreasing", t())),
    ("math.is_non_decreasing/empty", call("math.is_non_decreasing", t("float32", (0,)))),
    ("math.is_strictly_increasing", call("math.is_strictly_increasing", {"py": [1, 2, 2, 5]})),
    ("math.is_strictly_increasing/yes", call("math.is_strictly_increasing", {"py": [[1.0, 2.0], [3.5, 4.0]]})),
    ("clip_by_average_norm", call("clip_by_average_norm", t(), 0.5, grad=True)),
    ("clip_by_average_norm/large", call("clip_by_average_norm", t("float64"), 100.0)),
    # coordinate indexing
    ("gather_nd", call("gather_nd", t("float32", (3, 4)), {"py": [[0, 1], [2, 3]]}, grad=True)),
    ("gather_nd/slices", call("gather_nd", t("float32", (3, 4)), t("int64", (2, 1), "idx3"), grad=True)),
    ("gather_nd/batch", call("gather_nd", t("int32", (2, 3, 2)), {"py": [[[0, 1]], [[1, 2]]]})),
    ("gather_nd/unknown", call("gather_nd", p("float32", (None, 3), (4, 3)), {"py": [[1], [3]]})),
    ("gather_nd/zero_size", call("gather_nd", t("float32", (3, 4)), t("int32", (0, 2)))),
    ("gather_nd/bad_index", call("gather_nd", t("float32", (3, 4)), {"py": [[3, 0]]})),
    ("gather_nd/too_deep", call("gather_nd", t("float32", (3, 4)), {"py": [[0, 0, 0]]})),
    ("gather_nd/float_indices", call("gather_nd", t("float32", (3, 4)), {"py": [[0.5]]})),
    ("scatter_nd", call("scatter_nd", {"py": [[1], [3]]}, t("float64", (2, 3)), [4, 3], grad=True)),
    ("scatter_nd/repeated", call("scatter_nd", {"py": [[1, 0], [1, 0], [0, 2]]}, t("float32", (3,)), [2, 3])),
    ("scatter_nd/int64", call("scatter_nd", t("int64", (2, 1), "idx4"), t("int32", (2,)), [4])),
    ("scatter_nd/bad_index", call("scatter_nd", {"py": [[5]]}, t("float32", (1,)), [4])),
    ("scatter_nd/bad_updates", call("scatter_nd", {"py": [[1], [2]]}, t("float32", (3,)), [4])),
    ("tensor_scatter_nd_update", call("tensor_scatter_nd_update", t("float64", (4, 2)), {"py": [[0], [2]]},
                                      t("float64", (2, 2), salt=1), grad=True)),
    ("tensor_scatter_nd_add", call("tensor_scatter_nd_add", t("float64", (4, 2)), {"py": [[1, 1], [1, 1]]},
                                   t("float64", (2,), salt=1), grad=True)),
    ("tensor_scatter_nd_sub", call("tensor_scatter_nd_sub", t("float64", (4, 2)), {"py": [[3]]},
                                   t("float64", (1, 2), salt=1), grad=True)),
    ("tensor_scatter_update", call("tensor_scatter_update", t("int32", (3,)), {"py": [[1]]}, {"py": [9]})),
    ("tensor_scatter_add", call("tensor_scatter_add", t("float32", (3,)), {"py": [[1]]}, {"py": [9.0]})),
    ("tensor_scatter_sub", call("tensor_scatter_sub", t("float32", (3,)), {"py": [[2]]}, {"py": [9.0]})),
    ("tensor_scatter_nd_update/bad_updates", call("tensor_scatter_nd_update", t("float32", (3, 2)), {"py": [[1]]},
                                                  t("float32", (3,)))),
    # segment reductions: segment 1 has no rows, and unsorted ids drop -1
    ("math.segment_max", call("math.segment_max", t("float64", (4, 2)), {"py": [0, 0, 2, 2]}, grad=True)),
    ("math.segment_min", call("math.segment_min", t("float64", (4, 2)), {"py": [0, 0, 2, 2]}, grad=True)),
    ("math.segment_prod", call("math.segment_prod", t("float64", (4, 2)), {"py": [0, 0, 2, 2]}, grad=True)),
    ("math.segment_max/ties", call("math.segment_max", {"py": [[1.0, 2.0], [1.0, 0.0], [3.0, 3.0]]},
                                   {"py": [0, 0, 1]})),
    ("segment_max/int", call("segment_max", t("int32", (4,)), {"py": [0, 1, 1, 3]})),
    ("segment_min/int64_ids", call("segment_min", t("float32", (3, 2)), t("int64", (3,), "idx2"))),
    ("segment_prod/zero_size", call("segment_prod", t("float32", (0, 2)), t("int32", (0,)))),
    ("segment_max/unsorted_ids", call("segment_max", t("float32", (3,)), {"py": [1, 0, 1]})),
    ("math.unsorted_segment_max", call("math.unsorted_segment_max", t("float64", (4, 2)), {"py": [1, 0, 1, -1]}, 3,
                                       grad=True)),
    ("math.unsorted_segment_min", call("math.unsorted_segment_min", t("float64", (4, 2)), {"py": [1, 0, 1, -1]}, 3,
                                       grad=True)),
    ("math.unsorted_segment_prod", call("math.unsorted_segment_prod", t("float64", (4, 2)), {"py": [1, 0, 1, 2]}, 4,
                                        grad=True)),
    ("math.unsorted_segment_mean", call("math.unsorted_segment_mean", t("float64", (4, 2)), {"py": [1, 0, 1, -1]},
                                        3, grad=True)),
    ("math.unsorted_segment_sqrt_n", call("math.unsorted_segment_sqrt_n", t("float64", (4, 2)),
                                          {"py": [1, 0, 1, 1]}, 3, grad=True)),
    ("unsorted_segment_max/int", call("unsorted_segment_max", t("int32", (4,)), {"py": [1, 0, 1, 2]}, 4)),
    ("unsorted_segment_min/ids_2d", call("unsorted_segment_min", t("float32", (2, 2, 3)), {"py": [[0, 1], [1, 0]]},
                                         2)),
    ("unsorted_segment_prod/unknown", call("unsorted_segment_prod", p("float32", (None, 3), (4, 3)),
                                           {"py": [0, 1, 0, 1]}, 2)),
    ("unsorted_segment_mean/int", call("unsorted_segment_mean", t("int32", (4,)), {"py": [0, 0, 1, 1]}, 2)),
    ("unsorted_segment_max/bad_id", call("unsorted_segment_max", t("float32", (2,)), {"py": [0, 5]}, 2)),
    # diagonals
    ("matrix_diag", call("matrix_diag", t("float64", (2, 3)), grad=True)),
    ("matrix_diag/int", call("matrix_diag", t("int32", (3,)))),
    ("matrix_diag/unknown", call("matrix_diag", p("float32", (None, 3), (2, 3)))),
    ("matrix_diag/scalar", call("matrix_diag", t("float32", ()))),
    ("matrix_set_diag", call("matrix_set_diag", t("float64", (2, 3, 3)), t("float64", (2, 3), salt=1), grad=True)),
    ("matrix_set_diag/wide", call("matrix_set_diag", t("float32", (2, 3)), t("float32", (2,), salt=1))),
    ("matrix_set_diag/bad", call("matrix_set_diag", t("float32", (3, 3)), t("float32", (2, 2)))),
    ("linalg.diag", call("linalg.diag", t("float32", (2,)))),
    ("linalg.set_diag", call("linalg.set_diag", t("float32", (2, 2)), t("float32", (2,), salt=1))),
    ("linalg.tensor_diag_part", call("linalg.tensor_diag_part", t("float64", (2, 3, 2, 3)), grad=True)),
    ("diag_part", call("diag_part", t("float64", (3, 3)), grad=True)),
    ("diag_part/odd_rank", call("diag_part", t("float32", (3,)))),
    ("diag_part/mismatch", call("diag_part", t("float32", (2, 3)))),
    ("linalg.global_norm", call("linalg.global_norm", {"list": [t(), t("float32", (3,), salt=1)]})),
    # index arithmetic
    ("roll", call("roll", t("float64"), 1, 1, grad=True)),
    ("roll/axes", call("roll", t("int32", (3, 4)), [1, -2], [0, 1])),
    ("roll/negative_axis", call("roll", t("float32", (2, 3)), 4, -1)),
    ("roll/same_axis_twice", call("roll", t("float32", (5,)), [1, 2], [0, 0])),
    ("roll/unknown", call("roll", p("float32", (None, 3), (2, 3)), 1, 0)),
    ("roll/bad_axis", call("roll", t("float32", (2, 3)), 1, 2)),
    ("roll/float_shift", call("roll", t("float32", (2, 3)), 1.5, 0)),
    ("invert_permutation", call("invert_permutation", {"py": [2, 0, 3, 1]})),
    ("math.invert_permutation/int64", call("math.invert_permutation", t("int64", (1,), "idx1"))),
    ("invert_permutation/bad", call("invert_permutation", {"py": [0, 0, 1]})),
    ("invert_permutation/float", call("invert_permutation", {"py": [0.0, 1.0]})),
    ("setdiff1d", call("setdiff1d", {"py": [1, 2, 3, 4, 5, 2]}, {"py": [2, 4]})),
    ("setdiff1d/index_int64", call("setdiff1d", t("float32", (4,)), t("float32", (2,)), index_dtype={"dtype": "int64"})),
    ("setdiff1d/matrix", call("setdiff1d", t("int32", (2, 2)), {"py": [1]})),
    ("bincount", call("bincount", t("int32", (6,), "idx4"))),
    ("math.bincount/minlength", call("math.bincount", t("int32", (2, 3), "idx3"), minlength=6)),
    ("bincount/maxlength", call("bincount", t("int32", (6,), "idx4"), maxlength=2)),
    ("bincount/weights", call("bincount", t("int32", (6,), "idx4"), weights=t("float32", (6,)))),
    ("bincount/negative", call("bincount", {"py": [1, -1]})),
    ("bincount/int64", call("bincount", t("int64", (3,), "idx3"))),
    ("meshgrid", call("meshgrid", t("float64", (3,)), t("float64", (2,), salt=1), grad=True)),
    ("meshgrid/ij", call("meshgrid", t("int32", (3,)), t("int32", (2,), salt=1), indexing="ij")),
    ("meshgrid/three", call("meshgrid", t("float32", (2,)), t("float32", (3,)), t("float32", (4,)))),
    ("meshgrid/unknown", call("meshgrid", p("float32", (None,), (2,)), t("float32", (3,)))),
    ("space_to_depth", call("space_to_depth", t("float64", IMG), 2, grad=True)),
    ("nn.space_to_depth/unknown", call("nn.space_to_depth", p("float32", (None, 4, 6, 1), (2, 4, 6, 1)), 2)),
    ("space_to_depth/indivisible", call("space_to_depth", t("float32", (1, 3, 4, 1)), 2)),
    ("depth_to_space", call("depth_to_space", t("float64", (1, 2, 2, 8)), 2, grad=True)),
    ("nn.depth_to_space/int", call("nn.depth_to_space", t("int32", (2, 1, 2, 4)), 2)),
    ("depth_to_space/indivisible", call("depth_to_space", t("float32", (1, 2, 2, 6)), 2)),
]

SQ = "diag"  # well-conditioned square matrices: 3 on the diagonal
LINALG = [
    ("matrix_solve", call("matrix_solve", t("float64", (3, 3), SQ), t("float64", (3, 2)), grad=True)),
    ("matrix_solve/adjoint", call("matrix_solve", t("float64", (2, 3, 3), SQ), t("float64", (2, 3, 1)), adjoint=True,
                                  grad=True)),
    ("matrix_solve/float32", call("matrix_solve", t("float32", (2, 2), SQ), t("float32", (2, 1)))),
    ("matrix_solve/complex", call("matrix_solve", t("complex128", (2, 2), SQ), t("complex128", (2, 1)))),
    ("matrix_solve/singular", call("matrix_solve", {"py": [[1.0, 2.0], [2.0, 4.0]]}, {"py": [[1.0], [1.0]]})),
    ("matrix_solve/not_square", call("matrix_solve", t("float32", (2, 3)), t("float32", (2, 1)))),
    ("matrix_solve/rows", call("matrix_solve", t("float32", (2, 2), SQ), t("float32", (3, 1)))),
    ("matrix_solve/int", call("matrix_solve", t("int32", (2, 2)), t("int32", (2, 1)))),
    ("matrix_solve/unknown", call("matrix_solve", p("float32", (None, 2, 2), (1, 2, 2), SQ), t("float32", (1, 2, 1)))),
    ("linalg.solve", call("linalg.solve", t("float64", (2, 2), SQ), t("float64", (2, 3)))),
    ("matrix_triangular_solve", call("matrix_triangular_solve", t("float64", (3, 3), SQ), t("float64", (3, 2)),
                                     grad=True)),
    ("matrix_triangular_solve/upper_adjoint", call("matrix_triangular_solve", t("float64", (3, 3), SQ),
                                                   t("float64", (3, 1)), lower=False, adjoint=True, grad=True)),
    ("linalg.triangular_solve", call("linalg.triangular_solve", t("float32", (2, 2), SQ), t("float32", (2, 1)))),
    ("cholesky_solve", call("cholesky_solve", t("float64", (3, 3), SQ), t("float64", (3, 1)), grad=True)),
    ("linalg.cholesky_solve", call("linalg.cholesky_solve", t("float32", (2, 2), SQ), t("float32", (2, 2)))),
    ("svd/values", call("svd", t("float64", (3, 2)), compute_uv=False, grad=True)),
    ("svd/values_wide", call("svd", t("float32", (2, 2, 3)), compute_uv=False)),
    ("svd/shapes", call("svd", t("float64", (3, 2)), values=False)),
    ("svd/full_shapes", call("svd", t("float32", (2, 4, 3)), full_matrices=True, values=False)),
    ("svd/unknown", call("svd", p("float32", (None, 3), (2, 3)), values=False)),
    ("svd/int", call("svd", t("int32", (2, 2)))),
    ("linalg.svd/values", call("linalg.svd", t("float64", (3, 3), SQ), compute_uv=False)),
    ("linalg.slogdet", call("linalg.slogdet", t("float64", (2, 3, 3), SQ), grad=True)),
    ("linalg.slogdet/negative", call("linalg.slogdet", {"py": [[0.0, 2.0], [3.0, 1.0]]})),
    ("linalg.slogdet/float32", call("linalg.slogdet", t("float32", (2, 2), SQ))),
    ("linalg.logdet", call("linalg.logdet", {"py": [[4.0, 1.0], [1.0, 3.0]]})),
    ("linalg.matvec", call("linalg.matvec", t("float64", (2, 3)), t("float64", (3,)), grad=True)),
    ("linalg.matvec/batch_transpose", call("linalg.matvec", t("float32", (2, 3, 2)), t("float32", (2, 3)),
                                           transpose_a=True)),
    ("linalg.adjoint", call("linalg.adjoint", t("complex64", (2, 3)))),
    ("linalg.adjoint/real", call("linalg.adjoint", t("float32", (2, 2, 3)), grad=True)),
    ("matrix_solve_ls", call("matrix_solve_ls", t("float64", (4, 2)), t("float64", (4, 1)), grad=True)),
    ("matrix_solve_ls/under", call("matrix_solve_ls", t("float64", (2, 3)), t("float64", (2, 1)))),
    ("matrix_solve_ls/l2", call("matrix_solve_ls", t("float32", (3, 2)), t("float32", (3, 2)), l2_regularizer=0.5)),
    ("linalg.lstsq", call("linalg.lstsq", t("float64", (3, 2)), t("float64", (3, 1)))),
    ("linalg.pinv", call("linalg.pinv", t("float64", (3, 2)), grad=True)),
    ("linalg.pinv/rank_deficient", call("linalg.pinv", {"py": [[1.0, 2.0], [2.0, 4.0]]})),
    ("linalg.matrix_rank", call("linalg.matrix_rank", {"py": [[1.0, 2.0], [2.0, 4.0]]})),
    ("linalg.matrix_rank/full", call("linalg.matrix_rank", t("float64", (2, 3, 3), SQ))),
    ("linalg.expm", call("linalg.expm", t("float64", (3, 3)), grad=True)),
    ("linalg.expm/large", call("linalg.expm", t("float64", (2, 3, 3), SQ))),
    ("linalg.expm/float32", call("linalg.expm", t("float32", (2, 2), "unit"))),
    ("linalg.expm/complex", call("linalg.expm", t("complex128", (2, 2), "unit"))),
    ("linalg.expm/not_square", call("linalg.expm", t("float32", (2, 3)))),
    ("linalg.normalize", call("linalg.normalize", t("float64"), axis=1, grad=True)),
    ("linalg.normalize/all", call("linalg.normalize", t("float32"))),
]
COMPLEX = [
    ("complex", call("complex", t("float64"), t("float64", salt=1), grad="grad_ys")),
    ("complex/grad_ys_needed", call("complex", t("float64"), t("float64", salt=1), grad=True)),
    ("complex/float32_bcast", call("complex", t("float32", (2, 3)), t("float32", (3,), salt=1))),
    ("complex/int", call("complex", t("int32"), t("int32"))),
    ("complex/mixed", call("complex", t("float32"), t("float64"))),
    ("real", call("real", t("complex128"), grad=True)),
    ("real/float", call("real", t("float32"))),
    ("imag", call("imag", t("complex64"))),
    ("math.imag/float", call("math.imag", t("float64"), grad=True)),
    ("math.real/unknown", call("math.real", p("complex64", (None, 3), (2, 3)))),
    ("conj", call("conj", t("complex64"))),
    ("math.conj/float", call("math.conj", t("float32"))),
    ("conj/grad", call("conj", t("complex128"), grad="grad_ys")),
    ("angle", call("angle", t("complex128"), grad=True)),
    ("math.angle/float", call("math.angle", t("float32"))),
    ("complex/add", call("add", t("complex64"), t("complex64", salt=1))),
    ("complex/matmul", call("matmul", t("complex128", (2, 3)), t("complex128", (3, 2)), grad="grad_ys")),
    ("complex/multiply", call("multiply", t("complex128", (2, 3)), t("complex128", (3,), salt=1), grad="grad_ys")),
    ("complex/reduce_sum", call("reduce_sum", t("complex64"), axis=1)),
    ("complex/cast", call("cast", t("float32"), {"dtype": "complex64"})),
]
SPECTRAL = []
for _ns in ("signal", "spectral"):
    SPECTRAL += [
        (f"{_ns}.fft", call(f"{_ns}.fft", t("complex64", (2, 4)))),
        (f"{_ns}.ifft", call(f"{_ns}.ifft", t("complex128", (2, 5)))),
        (f"{_ns}.rfft", call(f"{_ns}.rfft", t("float32", (2, 6)))),
        (f"{_ns}.irfft", call(f"{_ns}.irfft", t("complex64", (2, 4)))),
    ]
SPECTRAL += [
    ("signal.fft/grad", call("signal.fft", t("complex128", (2, 4)), grad="grad_ys")),
    ("signal.ifft/grad", call("signal.ifft", t("complex128", (3,)), grad="grad_ys")),
    ("signal.fft/float", call("signal.fft", t("float32", (4,)))),
    ("signal.fft/unknown", call("signal.fft", p("complex64", (None, 4), (2, 4)))),
    ("signal.fft/zero_size", call("signal.fft", t("complex64", (0, 4)))),
    ("signal.fft/scalar", call("signal.fft", t("complex64", ()))),
    ("signal.fft2d", call("signal.fft2d", t("complex128", (2, 3, 4)), grad="grad_ys")),
    ("signal.ifft2d", call("signal.ifft2d", t("complex64", (3, 4)))),
    ("signal.fft3d", call("signal.fft3d", t("complex64", (2, 2, 3)))),
    ("signal.ifft3d", call("signal.ifft3d", t("complex128", (2, 2, 3)), grad="grad_ys")),
    ("signal.rfft/grad", call("signal.rfft", t("float64", (2, 6)), grad="grad_ys")),
    ("signal.rfft/odd_grad", call("signal.rfft", t("float64", (5,)), grad="grad_ys")),
    ("signal.rfft/length", call("signal.rfft", t("float64", (2, 6)), [4], grad="grad_ys")),
    ("signal.rfft/padded", call("signal.rfft", t("float32", (3,)), [8])),
    ("signal.rfft/complex", call("signal.rfft", t("complex64", (4,)))),
    ("signal.irfft/grad", call("signal.irfft", t("complex128", (2, 4)), grad=True)),
    ("signal.irfft/odd", call("signal.irfft", t("complex128", (3,)), [5], grad=True)),
    ("signal.rfft2d", call("signal.rfft2d", t("float64", (2, 3, 4)), grad="grad_ys")),
    ("signal.irfft2d", call("signal.irfft2d", t("complex128", (3, 3)), grad=True)),
    ("signal.rfft3d", call("signal.rfft3d", t("float32", (2, 2, 4)))),
    ("signal.irfft3d", call("signal.irfft3d", t("complex64", (2, 2, 3)))),
    ("signal.irfft/float", call("signal.irfft", t("float32", (3,)))),
    ("fft", call("fft", t("complex64", (3,)))),
    ("ifft2d", call("ifft2d", t("complex64", (2, 2)))),
]

BITWISE = [(f"bitwise.{fn}/{dtype}", call(f"bitwise.{fn}", t(dtype, (2, 3)), t(dtype, (2, 3), "idx5", 1)))
           for fn in ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift")
           for dtype in ("int32", "int64", "uint8")]
BITWISE += [
    ("bitwise.invert/int32", call("bitwise.invert", t("int32"))),
    ("bitwise.invert/uint8", call("bitwise.invert", t("uint8", dom="pos"))),
    ("bitwise.invert/float", call("bitwise.invert", t("float32"))),
    ("bitwise.bitwise_and/float", call("bitwise.bitwise_and", t("float32"), t("float32"))),
    ("bitwise.bitwise_or/bcast", call("bitwise.bitwise_or", t("int32", (2, 3)), {"py": 6})),
    ("bitwise.left_shift/out_of_range", call("bitwise.left_shift", t("int32", (4,)), {"py": [-1, 0, 31, 40]})),
    ("bitwise.right_shift/out_of_range", call("bitwise.right_shift", t("int32", (4,)), {"py": [-1, 0, 31, 40]})),
]
BLOCKS = [
    ("space_to_batch_nd", call("space_to_batch_nd", t("float64", (2, 4, 4, 1)), [2, 2], [[0, 0], [0, 0]], grad=True)),
    ("space_to_batch_nd/padded", call("space_to_batch_nd", t("float64", (1, 3, 2, 2)), [2, 2], [[1, 0], [0, 0]],
                                      grad=True)),
    ("space_to_batch_nd/one_dim", call("space_to_batch_nd", t("int32", (2, 6, 3)), [3], [[0, 0]])),
    ("space_to_batch_nd/unknown", call("space_to_batch_nd", p("float32", (None, 4, 4, 1), (3, 4, 4, 1)), [2, 2],
                                       [[0, 0], [0, 0]])),
    ("space_to_batch_nd/indivisible", call("space_to_batch_nd", t("float32", (1, 3, 4, 1)), [2, 2],
                                           [[0, 0], [0, 0]])),
    ("space_to_batch_nd/bad_paddings", call("space_to_batch_nd", t("float32", (1, 4, 4, 1)), [2, 2], [[0, 0]])),
    ("batch_to_space_nd", call("batch_to_space_nd", t("float64", (4, 2, 2, 1)), [2, 2], [[0, 0], [0, 0]],
                               grad=True)),
    ("batch_to_space_nd/cropped", call("batch_to_space_nd", t("float64", (4, 2, 3, 2)), [2, 2], [[1, 0], [0, 2]],
                                       grad=True)),
    ("batch_to_space_nd/indivisible", call("batch_to_space_nd", t("float32", (3, 2, 2, 1)), [2, 2],
                                           [[0, 0], [0, 0]])),
    ("space_to_batch", call("space_to_batch", t("float32", (1, 4, 4, 1)), [[0, 0], [0, 0]], 2)),
    ("batch_to_space", call("batch_to_space", t("float32", (4, 2, 2, 1)), [[0, 0], [0, 0]], 2)),
    ("nn.space_to_batch", call("nn.space_to_batch", t("float32", (1, 2, 2, 1)), [[1, 1], [1, 1]], 2)),
    ("manip.space_to_batch_nd", call("manip.space_to_batch_nd", t("float32", (1, 2, 2, 1)), [1, 2],
                                     [[0, 0], [0, 0]])),
    ("manip.batch_to_space_nd", call("manip.batch_to_space_nd", t("float32", (2, 2, 1, 1)), [1, 2],
                                     [[0, 0], [0, 0]])),
    ("manip.gather_nd", call("manip.gather_nd", t("float32", (2, 3)), {"py": [[1, 2]]})),
    ("manip.scatter_nd", call("manip.scatter_nd", {"py": [[0]]}, t("float32", (1,)), [3])),
    ("manip.roll", call("manip.roll", t("float32", (3,)), 1, 0)),
    ("manip.reshape", call("manip.reshape", t("float32", (2, 3)), [3, 2])),
    ("manip.reverse", call("manip.reverse", t("float32", (2, 3)), [1])),
    ("manip.tile", call("manip.tile", t("float32", (2, 3)), [1, 2])),
]

RGB = (2, 3, 3)
IMAGE = [
    ("image.rgb_to_grayscale", call("image.rgb_to_grayscale", t("float32", RGB, "prob"), grad=True)),
    ("image.rgb_to_grayscale/batch_int", call("image.rgb_to_grayscale", t("int32", (1, 2, 2, 3), "pos"))),
    ("image.rgb_to_grayscale/unknown", call("image.rgb_to_grayscale", p("float32", (None, 2, 3), (1, 2, 3)))),
    ("image.rgb_to_grayscale/bad", call("image.rgb_to_grayscale", t("float32", (2, 2, 2)))),
    ("image.grayscale_to_rgb", call("image.grayscale_to_rgb", t("float64", (2, 2, 1)), grad=True)),
    ("image.grayscale_to_rgb/bad", call("image.grayscale_to_rgb", t("float32", (2, 2, 3)))),
    ("image.rgb_to_hsv", call("image.rgb_to_hsv", t("float64", RGB, "prob"), grad=True)),
    ("image.rgb_to_hsv/float32", call("image.rgb_to_hsv", t("float32", (1, 2, 2, 3), "prob"))),
    ("image.rgb_to_hsv/gray", call("image.rgb_to_hsv", {"py": [[0.5, 0.5, 0.5], [0.0, 0.0, 0.0]]})),
    ("image.rgb_to_hsv/int", call("image.rgb_to_hsv", t("int32", RGB))),
    ("image.hsv_to_rgb", call("image.hsv_to_rgb", t("float64", RGB, "prob"))),
    ("image.hsv_to_rgb/float32", call("image.hsv_to_rgb", t("float32", (1, 2, 2, 3), "prob"))),
    ("image.rgb_to_yiq", call("image.rgb_to_yiq", t("float64", RGB, "prob"), grad=True)),
    ("image.yiq_to_rgb", call("image.yiq_to_rgb", t("float32", RGB, "prob"))),
    ("image.rgb_to_yuv", call("image.rgb_to_yuv", t("float32", RGB, "prob"))),
    ("image.yuv_to_rgb", call("image.yuv_to_rgb", t("float64", RGB, "prob"), grad=True)),
    ("image.adjust_hue", call("image.adjust_hue", t("float32", RGB, "prob"), 0.2)),
    ("image.adjust_hue/negative", call("image.adjust_hue", t("float64", RGB, "prob"), -0.7)),
    ("image.adjust_hue/int", call("image.adjust_hue", t("int32", (1, 2, 2, 3), "pos"), 0.1)),
    ("image.adjust_saturation", call("image.adjust_saturation", t("float32", RGB, "prob"), 1.7)),
    ("image.adjust_saturation/half", call("image.adjust_saturation", t("float64", (1, 2, 2, 3), "prob"), 0.5)),
    ("image.random_hue", call("image.random_hue", t("float32", RGB, "prob"), 0.2, values=False)),
    ("image.random_hue/bad", call("image.random_hue", t("float32", RGB, "prob"), 0.7)),
    ("image.random_saturation", call("image.random_saturation", t("float32", RGB, "prob"), 0.5, 1.5, values=False)),
    ("image.adjust_gamma", call("image.adjust_gamma", t("float32", RGB, "prob"), 2.0, 0.5, grad=True)),
    ("image.adjust_gamma/int", call("image.adjust_gamma", t("int32", RGB, "pos"), 0.5)),
    ("image.adjust_gamma/float64", call("image.adjust_gamma", t("float64", RGB, "prob"), 1.5)),
    ("image.total_variation", call("image.total_variation", t("float64", RGB), grad=True)),
    ("image.total_variation/batch", call("image.total_variation", t("float32", (2, 2, 3, 1)))),
    ("image.total_variation/int", call("image.total_variation", t("int32", (2, 2, 1)))),
    ("image.image_gradients", call("image.image_gradients", t("float64", (1, 3, 3, 2)), grad=True)),
    ("image.image_gradients/bad", call("image.image_gradients", t("float32", RGB))),
    ("image.sobel_edges", call("image.sobel_edges", t("float64", (1, 3, 4, 2)), grad=True)),
    ("image.sobel_edges/float32", call("image.sobel_edges", t("float32", (2, 4, 3, 1)))),
    ("image.psnr", call("image.psnr", t("float32", RGB, "prob"), t("float32", RGB, "prob", 1), 1.0, grad=True)),
    ("image.psnr/int", call("image.psnr", t("int32", RGB, "pos"), t("int32", RGB, "pos", 1), 255)),
    ("image.psnr/float64", call("image.psnr", t("float64", (2, 2, 2, 3), "prob"), t("float64", (2, 2, 2, 3), "prob", 1),
                                1.0)),
]
NN = [
    ("nn.batch_norm_with_global_normalization", call("nn.batch_norm_with_global_normalization", t("float64"),
                                                     t("float64", (3,)), t("float64", (3,), "pos"),
                                                     t("float64", (3,), salt=1), t("float64", (3,), salt=2), 0.001,
                                                     True, grad=True)),
    ("nn.batch_norm_with_global_normalization/no_scale", call(
        "nn.batch_norm_with_global_normalization", t("float32"), t("float32", (3,)), t("float32", (3,), "pos"),
        t("float32", (3,), salt=1), t("float32", (3,), salt=2), 0.01, False)),
    ("nn.relu_layer", call("nn.relu_layer", t("float64"), t("float64", (3, 2)), t("float64", (2,)), grad=True)),
    ("nn.silu", call("nn.silu", t("float32"))),
    ("nn.log_poisson_loss", call("nn.log_poisson_loss", t("float64", dom="pos"), t("float64"), grad=True)),
    ("nn.log_poisson_loss/full", call("nn.log_poisson_loss", t("float64", dom="pos"), t("float64"),
                                      compute_full_loss=True, grad=True)),
    ("nn.log_poisson_loss/bad", call("nn.log_poisson_loss", t("float32", (3,)), t("float32"))),
    ("nn.compute_average_loss", call("nn.compute_average_loss", t("float64", (4,)), grad=True)),
    ("nn.compute_average_loss/weights", call("nn.compute_average_loss", t("float32", (4,)),
                                             sample_weight=t("float32", (4,), "pos"), global_batch_size=8)),
    ("nn.scale_regularization_loss", call("nn.scale_regularization_loss", t("float32", ()))),
    ("nn.sufficient_statistics", call("nn.sufficient_statistics", t("float64"), [0], grad=True)),
    ("nn.sufficient_statistics/shift", call("nn.sufficient_statistics", t("float32"), [1], shift=0.5,
                                            keepdims=True)),
    ("nn.sufficient_statistics/unknown", call("nn.sufficient_statistics", p("float32"), [0, 1])),
    ("nn.normalize_moments", call("nn.normalize_moments", 4.0, t("float64", (3,)), t("float64", (3,), "pos"), None,
                                  grad=True)),
    ("nn.normalize_moments/shift", call("nn.normalize_moments", 2.0, t("float32", (3,)), t("float32", (3,), "pos"),
                                        0.5)),
    ("nn.weighted_moments", call("nn.weighted_moments", t("float64"), [1], t("float64", dom="pos", salt=1),
                                 grad=True)),
    ("nn.weighted_moments/keepdims", call("nn.weighted_moments", t("float32"), [0], t("float32", (3,), "pos"),
                                          keepdims=True)),
    ("nn.avg_pool2d", call("nn.avg_pool2d", t("float32", IMG), 2, 2, "VALID")),
    ("nn.max_pool2d", call("nn.max_pool2d", t("float64", IMG), [2, 2], [1, 1], "SAME", grad=True)),
    ("nn.max_pool1d", call("nn.max_pool1d", t("float64", (2, 5, 3)), 2, 2, "VALID", grad=True)),
    ("nn.avg_pool1d", call("nn.avg_pool1d", t("float32", (2, 5, 3)), [3], [1], "SAME")),
    ("nn.max_pool_v2", call("nn.max_pool_v2", t("float32", IMG), 2, 1, "SAME")),
    ("nn.max_pool_v2/3d", call("nn.max_pool_v2", t("float32", (1, 2, 4, 4, 1)), 2, 2, "VALID")),
    ("nn.avg_pool_v2/1d", call("nn.avg_pool_v2", t("float32", (1, 6, 2)), 3, 3, "VALID")),
    ("nn.pool", call("nn.pool", t("float32", IMG), [2, 2], "MAX", "VALID", strides=[2, 2])),
    ("nn.pool/avg", call("nn.pool", t("float32", (1, 6, 2)), [2], "AVG", "SAME")),
    ("nn.convolution", call("nn.convolution", t("float64", IMG), t("float64", (2, 2, 2, 3)), "SAME", grad=True)),
    ("nn.convolution/1d", call("nn.convolution", t("float32", (1, 6, 2)), t("float32", (3, 2, 1)), "VALID",
                               strides=[2])),
    ("nn.convolution/dilated", call("nn.convolution", t("float32", (1, 5, 5, 1)), t("float32", (2, 2, 1, 1)), "VALID",
                                    dilation_rate=[2, 2])),
    ("nn.convolution/3d", call("nn.convolution", t("float32", (1, 3, 3, 3, 1)), t("float32", (2, 2, 2, 1, 2)),
                               "SAME")),
    ("nn.atrous_conv2d", call("nn.atrous_conv2d", t("float64", (1, 5, 5, 2)), t("float64", (2, 2, 2, 1)), 2, "SAME",
                              grad=True)),
    ("nn.conv2d_backprop_input", call("nn.conv2d_backprop_input", [1, 4, 4, 2], t("float64", (2, 2, 2, 3)),
                                      t("float64", (1, 2, 2, 3)), [1, 2, 2, 1], "SAME", grad=True)),
    ("nn.depthwise_conv2d_native_backprop_input", call("nn.depthwise_conv2d_native_backprop_input", [1, 4, 4, 2],
                                                       t("float64", (2, 2, 2, 2)), t("float64", (1, 2, 2, 4)),
                                                       [1, 2, 2, 1], "SAME", grad=True)),
    ("nn.depthwise_conv2d_backprop_filter", call("nn.depthwise_conv2d_backprop_filter", t("float64", IMG),
                                                 [2, 2, 2, 1], t("float64", (1, 4, 4, 2)), [1, 1, 1, 1], "SAME",
                                                 grad=True)),
    ("nn.conv1d_transpose", call("nn.conv1d_transpose", t("float64", (1, 3, 2)), t("float64", (2, 3, 2)), [1, 6, 3],
                                 2, grad=True)),
    ("nn.conv_transpose", call("nn.conv_transpose", t("float32", (1, 2, 2, 3)), t("float32", (2, 2, 2, 3)),
                               [1, 4, 4, 2], 2)),
    ("nn.conv_transpose/1d", call("nn.conv_transpose", t("float32", (1, 3, 2)), t("float32", (2, 1, 2)), [1, 3, 1],
                                  1)),
    ("nn.conv2d_backprop_filter", call("nn.conv2d_backprop_filter", t("float64", IMG), [2, 2, 2, 3],
                                       t("float64", (1, 2, 2, 3)), [1, 2, 2, 1], "SAME", grad=True)),
]

CHECKS = [
    ("assert_near", call("assert_near", t(), t())),
    ("debugging.assert_near/fed", call("debugging.assert_near", p(), t("float32", (3,)), rtol=0.5)),
    ("assert_rank_at_least", call("assert_rank_at_least", t(), 1)),
    ("assert_rank_at_least/low", call("assert_rank_at_least", t(), 3)),
    ("debugging.assert_rank_in", call("debugging.assert_rank_in", t(), [1, 2])),
    ("assert_rank_in/none", call("assert_rank_in", t(), [0, 3])),
    ("assert_scalar", call("assert_scalar", t("float32", ()))),
    ("assert_scalar/vector", call("assert_scalar", t("float32", (2,)))),
    ("assert_same_float_dtype", call("assert_same_float_dtype", {"list": [t("float64"), t("float64")]})),
    ("assert_same_float_dtype/mixed", call("assert_same_float_dtype", {"list": [t("float64"), t("float32")]})),
    ("assert_same_float_dtype/int", call("assert_same_float_dtype", {"list": [t("int32")]})),
    ("assert_proper_iterable/tensor", call("assert_proper_iterable", t())),
    ("verify_tensor_all_finite", call("verify_tensor_all_finite", t(), "msg")),
    ("debugging.assert_all_finite/inf", call("debugging.assert_all_finite", {"py": [1.0, float("inf")]}, "bad")),
]
OTHERS = [
    ("dynamic_partition", call("dynamic_partition", t("float64", (4, 2)), {"py": [0, 2, 0, 1]}, 3, grad=True)),
    ("dynamic_partition/matrix_ids", call("dynamic_partition", t("int32", (2, 2)), {"py": [[1, 0], [1, 1]]}, 2)),
    ("dynamic_partition/bad_id", call("dynamic_partition", t("float32", (2,)), {"py": [0, 3]}, 2)),
    ("dynamic_stitch", call("dynamic_stitch", {"list": [{"py": [0, 2]}, {"py": [1, 3]}]},
                            {"list": [t("float64", (2, 3)), t("float64", (2, 3), salt=1)]}, grad=True)),
    ("dynamic_stitch/overlap", call("dynamic_stitch", {"list": [{"py": [0, 1]}, {"py": [1]}]},
                                    {"list": [t("int32", (2,)), t("int32", (1,), salt=1)]})),
    ("searchsorted", call("searchsorted", {"py": [[1.0, 3.0, 5.0], [0.0, 2.0, 4.0]]}, t("float32", (2, 2)))),
    ("searchsorted/right", call("searchsorted", {"py": [1, 3, 3, 5]}, {"py": [3, 0, 6]}, side="right")),
    ("searchsorted/int64", call("searchsorted", {"py": [1, 3]}, {"py": [2]}, out_type={"dtype": "int64"})),
    ("unravel_index", call("unravel_index", {"py": [5, 7, 0]}, {"py": [3, 4]})),
    ("unravel_index/scalar", call("unravel_index", {"py": 5}, {"py": [2, 3]})),
    ("unravel_index/bad", call("unravel_index", {"py": [12]}, {"py": [3, 4]})),
    ("histogram_fixed_width", call("histogram_fixed_width", t("float32", (10,)), [-2.0, 2.0], 5)),
    ("histogram_fixed_width/int", call("histogram_fixed_width", t("int32", (6,)), [0, 10], nbins=3)),
    ("histogram_fixed_width_bins", call("histogram_fixed_width_bins", t("float64", (2, 3)), [-1.0, 1.0], 4)),
    ("histogram_fixed_width_bins/float32", call("histogram_fixed_width_bins", t("float32", (2, 3)), [-1.0, 1.0],
                                                nbins=4)),
    ("confusion_matrix", call("confusion_matrix", {"py": [0, 1, 2, 1]}, {"py": [0, 2, 2, 1]})),
    ("math.confusion_matrix/weights", call("math.confusion_matrix", {"py": [0, 1]}, {"py": [1, 1]}, 3,
                                           weights=t("float32", (2,)), dtype={"dtype": "float32"})),
    ("unique_with_counts", call("unique_with_counts", {"py": [3, 1, 3, 2, 1, 3]})),
    ("unique_with_counts/int64", call("unique_with_counts", t("float32", (4,)), out_idx={"dtype": "int64"})),
    ("shape_n", call("shape_n", {"list": [t(), p()]})),
    ("ensure_shape", call("ensure_shape", p(), [2, 3])),
    ("ensure_shape/static_bad", call("ensure_shape", t(), [3, 3])),
    ("ensure_shape/run_bad", call("ensure_shape", p(), [4, None])),
    ("broadcast_dynamic_shape", call("broadcast_dynamic_shape", {"py": [2, 1]}, {"py": [3]})),
    ("broadcast_dynamic_shape/bad", call("broadcast_dynamic_shape", {"py": [2]}, {"py": [3]})),
    ("repeat", call("repeat", t("float64", (2, 3)), [1, 2], axis=0, grad=True)),
    ("repeat/scalar_flat", call("repeat", t("int32", (2, 2)), 2)),
    ("repeat/axis1_zero", call("repeat", t("float64", (2, 3)), [2, 0, 1], axis=1, grad=True)),
    ("accumulate_n", call("accumulate_n", {"list": [t(), t(salt=1)]}, grad=True)),
    ("math.accumulate_n/mixed", call("math.accumulate_n", {"list": [t(), t("float64")]})),
    ("parallel_stack", call("parallel_stack", {"list": [t(), t(salt=1)]})),
    ("saturate_cast", call("saturate_cast", {"py": [-300.0, 12.7, 300.0]}, {"dtype": "uint8"})),
    ("math.reduce_euclidean_norm", call("math.reduce_euclidean_norm", t("float64"), 1, grad=True)),
    ("math.reduce_euclidean_norm/int", call("math.reduce_euclidean_norm", t("int32", (2, 3), "pos"))),
    ("math.cumulative_logsumexp", call("math.cumulative_logsumexp", t("float64"), axis=1, grad=True)),
    ("math.cumulative_logsumexp/exclusive_reverse", call("math.cumulative_logsumexp", t("float32", (4,)),
                                                         exclusive=True, reverse=True)),
    ("math.erfinv", call("math.erfinv", t("float64", dom="unit"), grad=True)),
    ("math.erfinv/float32", call("math.erfinv", {"py": [-1.0, -0.999, 0.0, 0.3, 0.9999, 1.0, 1.5]})),
    ("math.ndtri", call("math.ndtri", t("float64", dom="prob"), grad=True)),
    ("math.ndtri/float32", call("math.ndtri", {"py": [0.0, 0.001, 0.5, 0.975, 1.0]})),
    ("math.erfcinv", call("math.erfcinv", {"py": [0.1, 1.0, 1.9]})),
    ("math.approx_max_k", call("math.approx_max_k", t("float32", (2, 5)), 2)),
    ("nn.approx_min_k", call("nn.approx_min_k", t("float32", (2, 5)), 3)),
    ("math.nextafter", call("math.nextafter", t("float64"), t("float64", salt=1))),
    ("math.nextafter/float32", call("math.nextafter", t("float32"), {"py": 0.0})),
]

SIGNAL = [
    ("signal.frame", call("signal.frame", t("float64", (2, 10)), 4, 3, grad=True)),
    ("signal.frame/pad_end", call("signal.frame", t("float32", (7,)), 3, 2, pad_end=True, pad_value=-1.0)),
    ("signal.frame/axis0", call("signal.frame", t("int32", (6, 2)), 2, 2, axis=0)),
    ("signal.frame/short", call("signal.frame", t("float32", (3,)), 4, 1)),
    ("signal.overlap_and_add", call("signal.overlap_and_add", t("float64", (2, 3, 4)), 2, grad=True)),
    ("signal.overlap_and_add/bad_rank", call("signal.overlap_and_add", t("float32", (4,)), 2)),
    ("signal.hann_window", call("signal.hann_window", 6)),
    ("signal.hann_window/symmetric", call("signal.hann_window", 6, periodic=False, dtype={"dtype": "float64"})),
    ("signal.hann_window/odd", call("signal.hann_window", 5)),
    ("signal.hann_window/one", call("signal.hann_window", 1)),
    ("signal.hamming_window", call("signal.hamming_window", 8)),
    ("signal.hamming_window/int", call("signal.hamming_window", 4, dtype={"dtype": "int32"})),
    ("signal.stft", call("signal.stft", t("float64", (2, 12)), 4, 2, grad="grad_ys")),
    ("signal.stft/float32_fft", call("signal.stft", t("float32", (9,)), 5, 3, fft_length=8, pad_end=True)),
    ("signal.stft/no_window", call("signal.stft", t("float32", (8,)), 4, 4, window_fn=None)),
    ("signal.inverse_stft", call("signal.inverse_stft", t("complex128", (3, 3)), 4, 2, grad="grad_ys")),
    ("signal.inverse_stft/no_window", call("signal.inverse_stft", t("complex64", (2, 5)), 8, 4, window_fn=None)),
    ("signal.dct", call("signal.dct", t("float64", (2, 5)), grad=True)),
    ("signal.dct/ortho", call("signal.dct", t("float32", (3, 4)), norm="ortho")),
    ("signal.dct/type1", call("signal.dct", t("float64", (5,)), type=1)),
    ("signal.dct/type3_ortho", call("signal.dct", t("float64", (2, 4)), type=3, norm="ortho", grad=True)),
    ("signal.dct/type4", call("signal.dct", t("float32", (6,)), type=4)),
    ("signal.dct/n", call("signal.dct", t("float32", (2, 5)), n=3)),
    ("signal.dct/n_pad", call("signal.dct", t("float64", (5,)), n=7)),
    ("signal.dct/type1_ortho", call("signal.dct", t("float32", (4,)), type=1, norm="ortho")),
    ("signal.dct/int", call("signal.dct", t("int32", (4,)))),
    ("signal.idct", call("signal.idct", t("float64", (2, 4)))),
    ("signal.idct/ortho", call("signal.idct", t("float32", (5,)), norm="ortho")),
    ("spectral.dct", call("spectral.dct", t("float32", (4,)))),
    ("spectral.idct", call("spectral.idct", t("float32", (4,)), type=3)),
    ("signal.fftshift", call("signal.fftshift", t("float32", (2, 5)))),
    ("signal.fftshift/axes", call("signal.fftshift", t("float64", (4, 3)), axes=0, grad=True)),
    ("signal.ifftshift", call("signal.ifftshift", t("complex64", (2, 5)))),
    ("signal.linear_to_mel_weight_matrix", call("signal.linear_to_mel_weight_matrix", 8, 17, 8000, 100.0, 3000.0)),
    ("signal.linear_to_mel_weight_matrix/default", call("signal.linear_to_mel_weight_matrix")),
    ("signal.linear_to_mel_weight_matrix/float64", call("signal.linear_to_mel_weight_matrix", 4, 9, 16000, 0.0,
                                                        8000.0, {"dtype": "float64"})),
    ("signal.linear_to_mel_weight_matrix/nyquist", call("signal.linear_to_mel_weight_matrix", 4, 9, 8000, 0.0,
                                                        5000.0)),
    ("signal.kaiser_window", call("signal.kaiser_window", 7)),
    ("signal.kaiser_window/float64", call("signal.kaiser_window", 6, 4.0, {"dtype": "float64"})),
    ("signal.kaiser_window/one", call("signal.kaiser_window", 1)),
    ("signal.kaiser_bessel_derived_window", call("signal.kaiser_bessel_derived_window", 8)),
    ("signal.kaiser_bessel_derived_window/beta", call("signal.kaiser_bessel_derived_window", 6, 3.0,
                                                      {"dtype": "float64"})),
    ("signal.vorbis_window", call("signal.vorbis_window", 6)),
    ("signal.vorbis_window/float64", call("signal.vorbis_window", 5, {"dtype": "float64"})),
    ("signal.mfccs_from_log_mel_spectrograms", call("signal.mfccs_from_log_mel_spectrograms", t("float64", (2, 6)),
                                                    grad=True)),
]

BOXES = [[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, -0.1, 1.0, 0.9], [0.0, 10.0, 1.0, 11.0],
         [1.0, 1.0, 0.0, 0.0], [0.0, 100.0, 1.0, 101.0]]
IMAGE2 = [
    ("math.xlog1py", call("math.xlog1py", t("float64", (2, 3), "pos"), t("float64", (3,), "pos", 1), grad=True)),
    ("math.xlog1py/zeros", call("math.xlog1py", {"py": [0.0, 1.0, 2.0]}, t("float32", (2, 3), "pos"))),
    ("image.extract_patches", call("image.extract_patches", t("float64", (1, 5, 5, 2)), [1, 2, 2, 1], [1, 2, 2, 1],
                                   [1, 1, 1, 1], "VALID", grad=True)),
    ("image.extract_patches/same_rates", call("image.extract_patches", t("float64", (2, 4, 5, 1)), [1, 2, 3, 1],
                                              [1, 1, 2, 1], [1, 2, 1, 1], "SAME", grad=True)),
    ("image.extract_image_patches", call("image.extract_image_patches", t("int32", (1, 3, 3, 1)), [1, 2, 2, 1],
                                         [1, 1, 1, 1], [1, 1, 1, 1], "VALID")),
    ("extract_image_patches/unknown", call("extract_image_patches", p("float32", (None, 4, 4, 1), (2, 4, 4, 1)),
                                           [1, 3, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME")),
    ("image.extract_patches/bad_sizes", call("image.extract_patches", t("float32", (1, 4, 4, 1)), [2, 2],
                                             [1, 1, 1, 1], [1, 1, 1, 1], "VALID")),
    ("image.non_max_suppression", call("image.non_max_suppression", {"py": BOXES},
                                       {"py": [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]}, 3)),
    ("image.non_max_suppression/threshold", call("image.non_max_suppression", {"py": BOXES},
                                                 {"py": [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]}, 6, 0.5, 0.55)),
    ("image.non_max_suppression/iou_1", call("image.non_max_suppression", {"py": BOXES},
                                             {"py": [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]}, 10, 1.0)),
    ("image.non_max_suppression/bad_iou", call("image.non_max_suppression", {"py": BOXES},
                                               {"py": [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]}, 3, 1.5)),
    ("image.non_max_suppression_overlaps", call("image.non_max_suppression_overlaps",
                                                {"py": [[1.0, 0.7, 0.2], [0.7, 1.0, 0.0], [0.2, 0.0, 1.0]]},
                                                {"py": [0.9, 0.8, 0.7]}, 3, 0.5)),
    ("image.non_max_suppression_with_scores", call("image.non_max_suppression_with_scores", {"py": BOXES},
                                                   {"py": [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]}, 4, 0.3)),
    ("image.ssim", call("image.ssim", t("float32", (1, 6, 6, 2), "prob"), t("float32", (1, 6, 6, 2), "prob", 1), 1.0,
                        filter_size=3, grad=True)),
    ("image.ssim/single", call("image.ssim", t("float32", (7, 7, 1), "prob"), t("float32", (7, 7, 1), "prob", 1), 1.0,
                               filter_size=5)),
    ("image.ssim/int", call("image.ssim", t("int32", (2, 6, 6, 3), "pos"), t("int32", (2, 6, 6, 3), "pos", 1), 255,
                            filter_size=3, filter_sigma=1.0)),
    ("image.ssim/default_window", call("image.ssim", t("float32", (1, 11, 12, 1), "prob"),
                                       t("float32", (1, 11, 12, 1), "prob", 1), 1.0)),
    ("image.resize_image_with_pad", call("image.resize_image_with_pad", t("float32", (4, 6, 1)), 6, 6)),
    ("image.resize_image_with_pad/batch", call("image.resize_image_with_pad", t("float64", (2, 3, 2, 1)), 4, 5)),
]


def png(pixels, color, depth=8, filters=(0,), palette=None):
    """PNG bytes (base64) of `pixels` [h, w, stored channels], each row under the next of `filters` (PNG's row
    filters 0-4 applied here, so that a decoder must undo each)."""
    pixels = np.asarray(pixels, np.uint16 if depth == 16 else np.uint8)
    h, w = pixels.shape[:2]
    raw = pixels.astype(">u2").tobytes() if depth == 16 else pixels.tobytes()
    row_bytes = len(raw) // h
    bpp = max(1, row_bytes // w)
    rows, prior, out = [np.frombuffer(raw[i * row_bytes:(i + 1) * row_bytes], np.uint8).astype(int) for i in range(h)], \
        np.zeros(row_bytes, int), b""
    for y, row in enumerate(rows):
        kind = filters[y % len(filters)]
        left = np.concatenate([np.zeros(bpp, int), row[:-bpp]])
        corner = np.concatenate([np.zeros(bpp, int), prior[:-bpp]])
        if kind == 4:
            base = left + prior - corner
            pa, pb, pc = abs(base - left), abs(base - prior), abs(base - corner)
            pred = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, prior, corner))
        else:
            pred = [np.zeros_like(row), left, prior, (left + prior) // 2][kind]
        out += bytes([kind]) + ((row - pred) % 256).astype(np.uint8).tobytes()
        prior = row

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, 0))
    if palette is not None:
        data += chunk(b"PLTE", np.asarray(palette, np.uint8).tobytes())
    data += chunk(b"IDAT", zlib.compress(out)) + chunk(b"IEND", b"")
    return {"b64": base64.b64encode(data).decode()}


RGB_PIXELS = (np.arange(5 * 4 * 3).reshape(5, 4, 3) * 37 % 256).tolist()
CODECS = [
    ("image.decode_png/filters", call("image.decode_png", png(RGB_PIXELS, 2, filters=(0, 1, 2, 3, 4)))),
    ("image.decode_png/gray_to_rgb", call("image.decode_png", png(np.array(RGB_PIXELS)[..., :1], 0,
                                                                  filters=(4, 3)), channels=3)),
    ("image.decode_png/rgb_to_gray", call("image.decode_png", png(RGB_PIXELS, 2), channels=1)),
    ("image.decode_png/add_alpha", call("image.decode_png", png(RGB_PIXELS, 2, filters=(1,)), channels=4)),
    ("image.decode_png/gray_alpha", call("image.decode_png", png(np.array(RGB_PIXELS)[..., :2], 4, filters=(2, 4)))),
    ("image.decode_png/rgba_drop_alpha", call("image.decode_png", png(np.concatenate(
        [np.array(RGB_PIXELS), np.full((5, 4, 1), 200)], -1), 6, filters=(3,)), channels=3)),
    ("image.decode_png/16bit", call("image.decode_png", png(np.array(RGB_PIXELS) * 251, 2, depth=16,
                                                            filters=(0, 4)), dtype={"dtype": "uint16"})),
    ("image.decode_png/16bit_as_uint8", call("image.decode_png", png(np.array(RGB_PIXELS) * 251, 2, depth=16))),
    ("image.decode_png/8bit_as_uint16", call("image.decode_png", png(RGB_PIXELS, 2), dtype={"dtype": "uint16"})),
    ("image.decode_png/palette", call("image.decode_png", png([[[0], [2]], [[1], [0]]], 3,
                                                              palette=[[10, 20, 30], [40, 50, 60], [70, 80, 90]]))),
    ("image.decode_png/not_png", call("image.decode_png", {"py": "not an image"})),
    ("image.decode_png/bad_channels", call("image.decode_png", png(RGB_PIXELS, 2), channels=5)),
    ("image.decode_image/png", call("image.decode_image", png(RGB_PIXELS, 2, filters=(2,)))),
    ("image.decode_image/unknown", call("image.decode_image", {"py": "plain text"})),
    # encode_png's bytes depend on each encoder's zlib settings, so only its refusals are recorded here; its round
    # trip through decode_png is tested in tests/trainer/ops/test_image_decode_ops.py
    ("image.encode_png/float", call("image.encode_png", t("float32", (2, 3, 3)))),
    ("image.encode_png/rank2", call("image.encode_png", t("uint8", (2, 3)))),
    ("image.is_jpeg", call("image.is_jpeg", png(RGB_PIXELS, 2))),
    ("image.is_jpeg/jpeg", call("image.is_jpeg", {"b64": base64.b64encode(b"\xff\xd8\xff\xe0junk").decode()})),
]


def cases():
    """{case id: case}, every id starting with "math/"."""
    found = dict(_elementwise())
    found.update(ROWS)
    found.update(LINALG)
    found.update(COMPLEX)
    found.update(SPECTRAL)
    found.update(BITWISE)
    found.update(BLOCKS)
    found.update(IMAGE)
    found.update(NN)
    found.update(CHECKS)
    found.update(OTHERS)
    found.update(SIGNAL)
    found.update(IMAGE2)
    found.update(CODECS)
    return {f"math/{name}": case for name, case in found.items()}
