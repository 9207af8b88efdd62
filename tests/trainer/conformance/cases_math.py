"""The numeric names of tf.math, tf.linalg, tf.nn, tf.image, tf.signal, tf.bitwise and their top-level aliases,
checked against real TensorFlow: values over dtypes, static shapes with unknown and zero-size dims, gradients, and
TF's errors for bad input. Recorded into fixtures/tf_oracle_math.json (record_tf_oracle.py --family math)."""
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
    ("complex/matmul", call("matmul", t("complex128", (2, 3)), t("complex128", (3, 2)))),
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


def cases():
    """{case id: case}, every id starting with "math/"."""
    found = dict(_elementwise())
    found.update(ROWS)
    found.update(LINALG)
    found.update(COMPLEX)
    found.update(SPECTRAL)
    found.update(BITWISE)
    found.update(BLOCKS)
    return {f"math/{name}": case for name, case in found.items()}
