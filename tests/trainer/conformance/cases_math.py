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


def cases():
    """{case id: case}, every id starting with "math/"."""
    found = dict(_elementwise())
    found.update(ROWS)
    return {f"math/{name}": case for name, case in found.items()}
