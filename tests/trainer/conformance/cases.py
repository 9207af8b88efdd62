"""The conformance table: every case real TensorFlow is recorded on and ringflow replays, generated from tables.

This module imports neither TensorFlow nor ringflow: `probe(tf, case)` builds a case in whichever TF1-style module
it is given (`tf.compat.v1` in scripts/record_tf_oracle.py, `trainer` in test_tf_oracle.py) and returns what both
sides are compared on: values, dtypes, static shapes, names, collections, or the exception class and where it was
raised. Inputs are regenerated from each case's description, so the fixtures hold only TensorFlow's answers.

An argument in a case is plain JSON: {"t": dtype, "shape": ..., "dom": ...} a constant, {"p": ...} a placeholder
(static shape with None, fed at run time with "feed"), {"py": v} a Python scalar, {"b64": text} bytes, {"np": dtype, "v": v} a numpy
scalar, {"list": [...]} a Python list of arguments, {"init": name} an initializer, {"var": constant} a Variable
initialized to it, {"fn": path, "kwargs": {...}} the module's function with those keywords bound (a callable for
cond, while_loop, map_fn and the folds), {"s": nested strings} a tf.string constant, {"sparse": [indices, values,
shape]} a SparseTensor (values an argument; a result gives values, indices, shape), {"make": path, "args": [...],
"kwargs": {...}} what that call returns (a table's initializer), {"sp_p": dtype, "feed": [indices, values, shape]}
a sparse_placeholder (of static "shape" when given), {"build": f} what f(module) returns (a tf.data Dataset, a
function that builds datasets); anything else is passed as is. A SparseTensor result is
compared on its three parts, strings on their bytes; a case's "method": [name, args...] calls that method of the
call's result (a table's lookup), its "pick": i keeps result i alone (a metric's update op), its "python_values"
compares results that are Python values (not tensors) by their repr; tables and local variables are initialized
before the run. A tf.data case adds "then": [args] (the call made a transformation: it is called on them, a
dataset) and "drain": true (the result is a Dataset, read to its end through an initializable iterator: each
element's values, its structure of classes, and the error that ends it).

Seeded random cases add "graph_seed" (tf.set_random_seed before building), "runs" (Session.run that many times
in one session: each run's values are recorded, so the second draw is compared too) and "exact" (values compared
bit for bit, not within the dtype's tolerance).
"""
import base64
import contextlib
import functools
import operator

import numpy as np

F, I, B = ["float32", "float64"], ["int32", "int64"], ["bool"]
ALL = F + I + B
KEYS = ["variables", "trainable_variables", "local_variables", "model_variables", "losses",
        "regularization_losses", "update_ops", "summaries"]

# the elementwise families: (function path, domain of its inputs, differentiable)
UNARY = [("exp", "any", 1), ("log", "pos", 1), ("sqrt", "pos", 1), ("rsqrt", "pos", 1), ("log1p", "pos", 1),
         ("expm1", "any", 1), ("sin", "any", 1), ("cos", "any", 1), ("tan", "unit", 1), ("asin", "unit", 1),
         ("acos", "unit", 1), ("atan", "any", 1), ("sinh", "any", 1), ("cosh", "any", 1), ("asinh", "any", 1),
         ("acosh", "ge1", 1), ("atanh", "unit", 1), ("sigmoid", "any", 1), ("tanh", "any", 1),
         ("reciprocal", "any", 1), ("ceil", "any", 0), ("floor", "any", 0), ("rint", "any", 0), ("round", "any", 0),
         ("is_finite", "any", 0), ("is_inf", "any", 0), ("is_nan", "any", 0), ("abs", "any", 1),
         ("negative", "any", 1), ("square", "any", 1), ("sign", "any", 0), ("logical_not", "any", 0),
         ("identity", "any", 1), ("stop_gradient", "any", 0), ("zeros_like", "any", 0), ("ones_like", "any", 0),
         ("math.log_sigmoid", "any", 1), ("math.softplus", "any", 1), ("nn.relu", "any", 1), ("nn.relu6", "any", 1),
         ("nn.elu", "any", 1), ("nn.selu", "any", 1), ("nn.softplus", "any", 1), ("nn.softsign", "any", 1),
         ("nn.leaky_relu", "any", 1), ("nn.swish", "any", 1), ("nn.softmax", "any", 1),
         ("nn.log_softmax", "any", 1), ("nn.l2_normalize", "any", 1), ("nn.l2_loss", "any", 1),
         ("nn.zero_fraction", "any", 0), ("nn.crelu", "any", 1)]
BINARY = [("add", 1), ("subtract", 1), ("multiply", 1), ("divide", 1), ("truediv", 1), ("div", 1), ("realdiv", 1),
          ("div_no_nan", 1), ("floordiv", 0), ("floor_div", 0), ("floormod", 0), ("mod", 0), ("truncatediv", 0),
          ("truncatemod", 0), ("pow", 1), ("maximum", 1), ("minimum", 1), ("squared_difference", 1), ("atan2", 1),
          ("equal", 0), ("not_equal", 0), ("less", 0), ("less_equal", 0), ("greater", 0), ("greater_equal", 0),
          ("logical_and", 0), ("logical_or", 0), ("logical_xor", 0), ("math.divide_no_nan", 1)]
REDUCE = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_logsumexp",
          "reduce_all", "reduce_any", "count_nonzero", "argmax", "argmin", "cumsum", "cumprod"]
OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
             "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "@": operator.matmul,
             "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "&": operator.and_,
             "|": operator.or_, "^": operator.xor}
UNARY_OPERATORS = {"neg": operator.neg, "invert": operator.invert, "abs": abs}
SCALARS = [{"py": 2}, {"py": 2.5}, {"py": True}, {"np": "float32", "v": 2.0}, {"np": "float64", "v": 2.5},
           {"np": "int32", "v": 2}, {"np": "int64", "v": 3}]


def t(dtype="float32", shape=(2, 3), dom="any", salt=0):
    return {"t": dtype, "shape": list(shape), "dom": dom, "salt": salt}


def p(dtype="float32", shape=(None, 3), feed=(2, 3), dom="any", salt=0):
    return {"p": dtype, "shape": None if shape is None else list(shape), "feed": list(feed), "dom": dom,
            "salt": salt}


def init(name, *args):
    return {"init": name, "args": list(args)}


def fn(path, **kwargs):
    return {"fn": path, "kwargs": kwargs}


def var(value):
    return {"var": value}


def call(fn, *args, grad=False, values=True, scope=(), **kwargs):
    return {"kind": "call", "fn": fn, "args": list(args), "kwargs": kwargs, "grad": grad, "values": values,
            "scope": list(scope)}


def _unary_cases():
    for fn, dom, grad in UNARY:
        for dtype in ALL:
            yield f"unary/{fn}/{dtype}", call(fn, t(dtype, dom=dom))
        yield f"unary/{fn}/unknown_rank", call(fn, p("float32", None, (2, 3), dom))
        yield f"unary/{fn}/zero_size", call(fn, t("float32", (0, 3), dom))
        if grad:
            yield f"grad/{fn}", call(fn, t("float64", dom=dom), grad=True)


def _binary_cases():
    pairs = {"bcast_row": ((2, 3), (3,)), "bcast_outer": ((2, 1), (1, 3)), "bcast_scalar": ((), (2, 3)),
             "zero_size": ((0, 3), (3,))}
    for fn, grad in BINARY:
        for dtype in ALL:
            yield f"binary/{fn}/{dtype}", call(fn, t(dtype, dom="pos"), t(dtype, dom="pos", salt=1))
        for mix in (("float32", "int32"), ("float32", "float64"), ("int32", "int64")):
            yield f"binary/{fn}/mixed_{mix[0]}_{mix[1]}", call(fn, t(mix[0], dom="pos"), t(mix[1], dom="pos"))
        for label, (a, b) in pairs.items():
            yield f"binary/{fn}/{label}", call(fn, t("float32", a, "pos"), t("float32", b, "pos", 1))
        yield f"binary/{fn}/unknown_dim", call(fn, p("float32", (None, 3), (2, 3), "pos"), t("float32", (3,), "pos"))
        yield f"binary/{fn}/python_scalar", call(fn, t("float32", dom="pos"), {"py": 2})
        if grad:
            yield f"grad/{fn}/bcast", call(fn, t("float64", (2, 3), "pos"), t("float64", (3,), "pos", 1), grad=True)


def _reduce_cases():
    for fn in REDUCE:
        for dtype in ALL:
            yield f"reduce/{fn}/{dtype}", call(fn, t(dtype, dom="pos"))
        axis = 0 if fn in ("argmax", "argmin", "cumsum", "cumprod") else None
        yield f"reduce/{fn}/axis1", call(fn, t(dom="pos"), axis=1)
        yield f"reduce/{fn}/axis_neg", call(fn, t(dom="pos"), axis=-1)
        yield f"reduce/{fn}/unknown_dim", call(fn, p(dom="pos"), axis=1)
        yield f"reduce/{fn}/zero_size", call(fn, t("float32", (0, 3), "pos"), axis=1 if axis is None else 1)
        if axis is None:
            yield f"reduce/{fn}/keepdims", call(fn, t(dom="pos"), axis=1, keepdims=True)
            yield f"reduce/{fn}/axis_list", call(fn, t("float32", (2, 3, 2), "pos"), axis=[0, 2])
            yield f"reduce/{fn}/unknown_rank", call(fn, p("float32", None, (2, 3), "pos"))
        if fn in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_logsumexp",
                  "cumsum", "cumprod"):
            yield f"grad/{fn}", call(fn, t("float64", dom="pos"), grad=True, axis=1)


def _operator_cases():
    for sym in OPERATORS:
        shape = (2, 2)
        for dtype in ("float32", "float64", "int32", "bool"):
            left = t(dtype, shape, "pos")
            yield f"op/{sym}/{dtype}/tensor", {"kind": "op", "op": sym, "a": left, "b": t(dtype, shape, "pos", 1)}
            for scalar in SCALARS:
                tag = "py_" + type(scalar["py"]).__name__ if "py" in scalar else "np_" + scalar["np"]
                yield f"op/{sym}/{dtype}/{tag}", {"kind": "op", "op": sym, "a": left, "b": scalar}
                yield f"op/{sym}/{tag}/{dtype}", {"kind": "op", "op": sym, "a": scalar, "b": left}
        yield f"names/op/{sym}", {"kind": "op", "op": sym, "a": t("float32", shape, "pos"),
                                  "b": t("float32", shape, "pos"), "twice": True}
    for sym in UNARY_OPERATORS:
        for dtype in ("float32", "int32", "bool"):
            yield f"op/{sym}/{dtype}", {"kind": "op", "op": sym, "a": t(dtype, dom="any")}


def _name_cases():
    for fn, dom, _ in UNARY:
        yield f"names/{fn}", dict(call(fn, t(dom=dom)), twice=True)
    for fn, _ in BINARY:
        yield f"names/{fn}", dict(call(fn, t(dom="pos"), t(dom="pos")), twice=True)
    for fn in REDUCE:
        yield f"names/{fn}", dict(call(fn, t(dom="pos")), twice=True)
    for fn, kwargs in [("nn.bias_add", {}), ("matmul", {})]:
        yield f"names/{fn}", dict(call(fn, t(shape=(2, 3)), t(shape=(3,) if fn == "nn.bias_add" else (3, 2))),
                                  twice=True)
    for scope in (["ns:outer"], ["vs:outer"], ["vs:a", "ns:b"]):
        yield f"names/scoped_add/{'/'.join(scope)}", dict(call("add", t(), t(), scope=scope), twice=True)


# every other public op function: one row each, (case name, call); families above cover the elementwise ones
IMG = (1, 4, 4, 3)
ROWS = [
    ("reshape", call("reshape", t(), [3, 2], grad=True)),
    ("reshape/infer", call("reshape", p(), [-1])),
    ("reshape/bad_const", call("reshape", t(), [4])),
    ("reshape/bad_fed", call("reshape", p(), [4])),
    ("transpose", call("transpose", t(), grad=True)),
    ("transpose/perm", call("transpose", t("float32", (2, 3, 2)), [2, 0, 1])),
    ("concat", call("concat", {"list": [t(), t(salt=1)]}, 0, grad=True)),
    ("concat/neg_axis", call("concat", {"list": [t(), p()]}, -1)),
    ("concat/mixed_dtype", call("concat", {"list": [t(), t("int32")]}, 0)),
    ("stack", call("stack", {"list": [t(), t(salt=1)]}, grad=True)),
    ("stack/axis1", call("stack", {"list": [p(), p()]}, axis=1)),
    ("unstack", call("unstack", t())),
    ("split", call("split", t(), 3, axis=1)),
    ("split/sizes", call("split", t(), [1, 2], axis=1)),
    ("split/one", call("split", t(), 1, axis=1, grad=True)),
    ("unstack/one", call("unstack", t("float32", (1, 3)), grad=True)),
    ("squeeze", call("squeeze", t("float32", (2, 1, 3)))),
    ("expand_dims", call("expand_dims", t(), 1)),
    ("expand_dims/unknown", call("expand_dims", p(), -1)),
    ("tile", call("tile", t(), [2, 1], grad=True)),
    ("pad", call("pad", t(), [[1, 0], [0, 2]], grad=True)),
    ("slice", call("slice", t(), [0, 1], [2, 2], grad=True)),
    ("strided_slice", call("strided_slice", t(), [0, 0], [2, 3], [1, 2])),
    ("gather", call("gather", t("float32", (4, 3)), t("int32", (2,), "idx4"), grad=True)),
    ("gather/axis1", call("gather", t(), t("int64", (2,), "idx3"), axis=1)),
    ("gather/bad_index", call("gather", t(), {"py": [5]})),
    ("one_hot", call("one_hot", t("int32", (3,), "idx4"), 4)),
    ("one_hot/int64", call("one_hot", t("int64", (3,), "idx4"), 4, dtype={"dtype": "float64"})),
    ("cast/int", call("cast", t(), {"dtype": "int32"})),
    ("cast/bool", call("cast", t(), {"dtype": "bool"})),
    ("cast/grad", call("cast", t("float64"), {"dtype": "float32"}, grad=True)),
    ("to_float", call("to_float", t("int32"))),
    ("to_int32", call("to_int32", t())),
    ("to_int64", call("to_int64", t())),
    ("to_double", call("to_double", t("int32"))),
    ("shape", call("shape", p())),
    ("size", call("size", t())),
    ("rank", call("rank", p("float32", None))),
    ("zeros", call("zeros", [2, 3])),
    ("zeros/int", call("zeros", [2], {"dtype": "int32"})),
    ("ones", call("ones", [2, 3])),
    ("fill", call("fill", [2, 2], 3.5)),
    ("fill/int", call("fill", [2], 3)),
    ("range", call("range", 5)),
    ("range/float", call("range", 0.0, 1.0, 0.25)),
    ("linspace", call("linspace", 0.0, 1.0, 5)),
    ("lin_space", call("lin_space", 0.0, 1.0, 3)),
    ("eye", call("eye", 3)),
    ("eye/rect", call("eye", 2, 3)),
    ("where/cond", call("where", t("bool"))),
    ("where/select", call("where", t("bool"), t(), t(salt=1), grad=True)),
    ("where_v2/broadcast", call("where_v2", t("bool", (2, 3)), t("float32", (3,)), {"py": 0.0})),
    ("boolean_mask", call("boolean_mask", t(), t("bool", (2,)))),
    ("reverse", call("reverse", t(), [1])),
    ("reverse_v2", call("reverse_v2", t(), [0])),
    ("reverse_sequence", call("reverse_sequence", t("float32", (2, 3)), {"py": [2, 3]}, seq_axis=1, batch_axis=0)),
    ("sequence_mask", call("sequence_mask", t("int32", (3,), "idx4"), 4)),
    ("sequence_mask/nomax", call("sequence_mask", {"py": [1, 3]})),
    ("broadcast_to", call("broadcast_to", t("float32", (3,)), [2, 3])),
    ("matrix_band_part", call("matrix_band_part", t("float32", (3, 3)), 1, 0)),
    ("matrix_diag_part", call("matrix_diag_part", t("float32", (3, 3)))),
    ("matrix_transpose", call("matrix_transpose", t("float32", (2, 2, 3)))),
    ("trace", call("trace", t("float32", (3, 3)))),
    ("einsum", call("einsum", "ij,jk->ik", t(), t("float32", (3, 2)), grad=True)),
    ("tensordot", call("tensordot", t(), t("float32", (3, 2)), 1)),
    ("norm", call("norm", t())),
    ("norm/axis", call("norm", t(), axis=1)),
    ("matmul", call("matmul", t(), t("float32", (3, 2)), grad=True)),
    ("matmul/transpose_a", call("matmul", t(), t("float32", (2, 2)), transpose_a=True)),
    ("matmul/transpose_b", call("matmul", t(), t("float32", (2, 3)), transpose_b=True)),
    ("matmul/batch", call("matmul", t("float32", (2, 2, 3)), t("float32", (2, 3, 2)))),
    ("matmul/batch_broadcast", call("matmul", t("float32", (2, 2, 3)), t("float32", (3, 2)), grad=True)),
    ("matmul/batch_adjoint", call("matmul", t("float64", (2, 3, 2)), t("float64", (1, 2, 3)), transpose_a=True,
                                  transpose_b=True, grad=True)),
    ("matmul/batch_unknown", call("matmul", p("float32", (None, 2, 3), (4, 2, 3)), t("float32", (3, 1)))),
    ("matmul/batch_bad", call("matmul", t("float32", (2, 2, 3)), t("float32", (2, 2, 3)))),
    ("matmul/int", call("matmul", t("int32", (2, 2)), t("int32", (2, 2)))),
    ("matmul/mixed", call("matmul", t("float32", (2, 2)), t("float64", (2, 2)))),
    ("matmul/bad_shape", call("matmul", t(), t())),
    ("matmul/bad_fed", call("matmul", p("float32", (None, None), (2, 3)), p("float32", (None, None), (2, 3)))),
    ("matrix_determinant", call("matrix_determinant", t("float64", (3, 3)))),
    ("matrix_inverse", call("matrix_inverse", t("float64", (3, 3), "diag"))),
    ("linalg.det", call("linalg.det", t("float64", (2, 2), "diag"))),
    ("linalg.inv", call("linalg.inv", t("float64", (2, 2), "diag"))),
    ("linalg.band_part", call("linalg.band_part", t("float32", (3, 3)), 0, -1)),
    ("linalg.diag_part", call("linalg.diag_part", t("float32", (3, 3)))),
    ("linalg.transpose", call("linalg.transpose", t())),
    ("linalg.trace", call("linalg.trace", t("float32", (2, 2)))),
    ("linalg.eye", call("linalg.eye", 2)),
    ("linalg.norm", call("linalg.norm", t())),
    ("linalg.matmul", call("linalg.matmul", t(), t("float32", (3, 1)))),
    ("linalg.einsum", call("linalg.einsum", "ij->ji", t())),
    ("linalg.tensordot", call("linalg.tensordot", t(), t("float32", (3,)), 1)),
    ("linalg.l2_normalize", call("linalg.l2_normalize", t(), axis=1)),
    ("linalg.qr/shapes", call("linalg.qr", t("float64", (3, 2)), values=False)),
    ("qr/shapes", call("qr", t("float64", (3, 3)), values=False)),
    ("cond", call("cond", {"py": True}, fn("constant", value=1.0), fn("constant", value=2.0))),
    ("cond/tensor_pred", call("cond", t("bool", ()), fn("constant", value=[1, 2]), fn("constant", value=[3, 4]))),
    ("while_loop", call("while_loop", fn("less", y=5), fn("add", y=2), {"list": [{"py": 0}]})),
    ("while_loop/tensor", call("while_loop", fn("less", y=10.0), fn("multiply", y=2.0),
                               {"list": [t("float32", (), "pos")]})),
    ("map_fn", call("map_fn", fn("square"), t(), grad=True)),
    ("map_fn/reduce", call("map_fn", fn("reduce_sum"), t())),
    ("foldl", call("foldl", fn("add"), t("float32", (4,)))),
    ("foldl/initializer", call("foldl", fn("multiply"), t("float32", (3,), "pos"), initializer=1.0)),
    ("foldr", call("foldr", fn("subtract"), t("float32", (4,)))),
    ("scan", call("scan", fn("add"), t("float32", (4,)))),
    ("scan/rows", call("scan", fn("add"), t(), grad=True)),
    ("assign", call("assign", var(t()), t(salt=1))),
    ("assign_add", call("assign_add", var(t()), t(salt=1))),
    ("assign_sub", call("assign_sub", var(t("int32")), t("int32", salt=1))),
    ("scatter_add", call("scatter_add", var(t("float32", (4, 2))), {"py": [0, 2]}, t("float32", (2, 2), salt=1))),
    ("scatter_update", call("scatter_update", var(t("float32", (4,))), {"py": [1, 3]}, t("float32", (2,), salt=1))),
    ("scatter_sub", call("scatter_sub", var(t("float32", (3,))), {"py": [0]}, t("float32", (1,), salt=1))),
    ("scatter_mul", call("scatter_mul", var(t("float32", (3,))), {"py": [2]}, t("float32", (1,), salt=1))),
    ("scatter_max", call("scatter_max", var(t("float32", (3,))), {"py": [1]}, t("float32", (1,), salt=1))),
    ("assert_equal", call("assert_equal", t(), t())),
    ("assert_equal/static_failure", call("assert_equal", t(), t(salt=1))),
    ("assert_positive", call("assert_positive", t(dom="pos"))),
    ("assert_rank", call("assert_rank", t(), 2)),
    ("assert_rank/wrong", call("assert_rank", t(), 3)),
    ("assert_less/fed", call("assert_less", p(dom="pos"), t("float32", (3,), "pos"))),
    ("group", call("group", t(), t())),
    ("no_op", call("no_op")),
    ("tuple", call("tuple", {"list": [t(), t("int32")]})),
    ("stop_gradient/unconnected", call("stop_gradient", t("float64"), grad=True)),
    ("argmax/unconnected", call("argmax", t("float64"), 1, grad=True)),
    ("shape/unconnected", call("shape", t("float64"), grad=True)),
    ("add_n", call("add_n", {"list": [t(), t(salt=1), t(salt=2)]}, grad=True)),
    ("add_n/mixed", call("add_n", {"list": [t(), t("float64")]})),
    ("clip_by_value", call("clip_by_value", t(), -0.5, 0.5, grad=True)),
    ("clip_by_norm", call("clip_by_norm", t(), 1.0)),
    ("global_norm", call("global_norm", {"list": [t(), t(salt=1)]})),
    ("clip_by_global_norm", call("clip_by_global_norm", {"list": [t(), t(salt=1)]}, 1.0)),
    ("scalar_mul", call("scalar_mul", 2.0, t())),
    ("sort", call("sort", t())),
    ("sort/desc", call("sort", t(), direction="DESCENDING")),
    ("argsort", call("argsort", t())),
    ("unique", call("unique", t("int32", (6,), "idx3"))),
    ("segment_sum", call("segment_sum", t("float32", (4, 2)), {"py": [0, 0, 1, 1]})),
    ("segment_mean", call("segment_mean", t("float32", (4, 2)), {"py": [0, 1, 1, 1]})),
    ("unsorted_segment_sum", call("unsorted_segment_sum", t("float32", (4, 2)), {"py": [1, 0, 1, 2]}, 3)),
    ("check_numerics", call("check_numerics", t(), "msg")),
    ("placeholder_with_default", call("placeholder_with_default", t(), [None, 3])),
    ("convert_to_tensor", call("convert_to_tensor", {"py": [1, 2]})),
    ("convert_to_tensor/float", call("convert_to_tensor", {"py": [1.0, 2.0]}, {"dtype": "float64"})),
    ("constant/int_list", call("constant", {"py": [1, 2, 3]})),
    ("constant/float", call("constant", {"py": 1.5})),
    ("constant/shape", call("constant", {"py": 0.0}, shape=[2, 2])),
    ("constant/int64_value", call("constant", {"py": 2 ** 40})),
    ("constant/bad_cast", call("constant", {"py": 1.5}, {"dtype": "int32"})),
    ("constant/integral_float_to_int", call("constant", {"py": [1.0, 2.0]}, {"dtype": "int64"})),
    ("constant/empty_int", call("constant", {"py": []}, {"dtype": "int32"})),
    ("constant/int_to_float", call("constant", {"py": 2}, {"dtype": "float64"})),
    ("constant/bool_to_int", call("constant", {"py": True}, {"dtype": "int32"})),
    ("constant/int_to_bool", call("constant", {"py": [1, 0]}, {"dtype": "bool"})),
    ("identity_n", call("identity_n", {"list": [t(), t("int32")]})),
    ("nn.top_k", call("nn.top_k", t(), 2)),
    ("math.top_k", call("math.top_k", t("int32"), 1)),
    ("nn.in_top_k", call("nn.in_top_k", t(), t("int32", (2,), "idx3"), 2)),
    ("math.in_top_k", call("math.in_top_k", t(), t("int32", (2,), "idx3"), 1)),
    ("segment/math.segment_sum", call("math.segment_sum", t("float32", (3, 2)), {"py": [0, 1, 1]})),
    ("nn.bias_add", call("nn.bias_add", t(), t("float32", (3,)), grad=True)),
    ("nn.bias_add/bad", call("nn.bias_add", t(), t("float32", (2,)))),
    ("nn.conv2d", call("nn.conv2d", t("float32", IMG), t("float32", (2, 2, 3, 2)), [1, 1, 1, 1], "SAME",
                       grad=True)),
    ("nn.conv2d/valid_stride", call("nn.conv2d", t("float32", (1, 5, 5, 2)), t("float32", (3, 3, 2, 1)),
                                    [1, 2, 2, 1], "VALID")),
    ("nn.conv2d/unknown_batch", call("nn.conv2d", p("float32", (None, 4, 4, 3), IMG), t("float32", (2, 2, 3, 2)),
                                     [1, 1, 1, 1], "SAME")),
    ("nn.max_pool", call("nn.max_pool", t("float32", IMG), [1, 2, 2, 1], [1, 2, 2, 1], "VALID", grad=True)),
    ("nn.avg_pool", call("nn.avg_pool", t("float32", IMG), [1, 2, 2, 1], [1, 1, 1, 1], "SAME", grad=True)),
    ("nn.conv1d", call("nn.conv1d", t("float32", (1, 5, 2)), t("float32", (2, 2, 3)), 1, "SAME")),
    ("nn.conv2d_transpose", call("nn.conv2d_transpose", t("float32", (1, 2, 2, 2)), t("float32", (2, 2, 3, 2)),
                                 [1, 4, 4, 3], [1, 2, 2, 1], "SAME")),
    ("nn.softmax_cross_entropy_with_logits", call("nn.softmax_cross_entropy_with_logits", labels=t(dom="prob"),
                                                  logits=t(), grad=True)),
    ("nn.softmax_cross_entropy_with_logits_v2", call("nn.softmax_cross_entropy_with_logits_v2",
                                                     labels=t(dom="prob"), logits=t())),
    ("nn.sparse_softmax_cross_entropy_with_logits", call("nn.sparse_softmax_cross_entropy_with_logits",
                                                         labels=t("int32", (2,), "idx3"), logits=t(), grad=True)),
    ("nn.sparse_softmax_cross_entropy_with_logits/int64", call(
        "nn.sparse_softmax_cross_entropy_with_logits", labels=t("int64", (2,), "idx3"), logits=t())),
    ("nn.sparse_softmax_cross_entropy_with_logits/bad_rank", call(
        "nn.sparse_softmax_cross_entropy_with_logits", labels=t("int32", (2, 1), "idx3"), logits=t())),
    ("nn.sigmoid_cross_entropy_with_logits", call("nn.sigmoid_cross_entropy_with_logits", labels=t(dom="prob"),
                                                  logits=t(), grad=True)),
    ("nn.weighted_cross_entropy_with_logits", call("nn.weighted_cross_entropy_with_logits", t(dom="prob"), t(),
                                                   2.0)),
    ("nn.moments", call("nn.moments", t(), [0])),
    ("nn.moments/keep_dims", call("nn.moments", t(), [1], keep_dims=True)),
    ("nn.batch_normalization", call("nn.batch_normalization", t(), t("float32", (3,)), t("float32", (3,), "pos"),
                                    None, None, 0.001, grad=True)),
    ("nn.fused_batch_norm", call("nn.fused_batch_norm", t("float32", IMG), t("float32", (3,), "pos"),
                                 t("float32", (3,)))),
    ("nn.lrn", call("nn.lrn", t("float32", IMG))),
    ("nn.local_response_normalization", call("nn.local_response_normalization", t("float32", IMG), 1)),
    ("nn.embedding_lookup", call("nn.embedding_lookup", t("float32", (4, 2)), t("int32", (3,), "idx4"), grad=True)),
    ("nn.xw_plus_b", call("nn.xw_plus_b", t(), t("float32", (3, 2)), t("float32", (2,)))),
    ("nn.dropout/shapes", call("nn.dropout", p(), 0.5, values=False)),
    ("nn.dropout/keep_all", call("nn.dropout", t(), 1.0)),
    ("nn.dropout/rate", call("nn.dropout", t(), rate=0.5, values=False)),
    ("random_normal", call("random_normal", [2, 3], values=False)),
    ("random_normal/float64", call("random_normal", [2], dtype={"dtype": "float64"}, values=False)),
    ("random_uniform", call("random_uniform", [3], values=False)),
    ("random_uniform/int", call("random_uniform", [3], 0, 10, dtype={"dtype": "int32"}, values=False)),
    ("random_uniform/int_no_max", call("random_uniform", [3], dtype={"dtype": "int32"}, values=False)),
    ("truncated_normal", call("truncated_normal", [2, 2], values=False)),
    ("random_shuffle", call("random_shuffle", t(), values=False)),
    ("random_crop", call("random_crop", t("float32", (4, 4)), [2, 3], values=False)),
    ("multinomial", call("multinomial", t(), 4, values=False)),
    ("random.normal", call("random.normal", [2], values=False)),
    ("random.uniform", call("random.uniform", [2, 1], values=False)),
    ("random.truncated_normal", call("random.truncated_normal", [1], values=False)),
    ("random.shuffle", call("random.shuffle", t("int32", (4,)), values=False)),
    ("random.categorical", call("random.categorical", t(), 3, values=False)),
    ("random.multinomial", call("random.multinomial", t(), 2, values=False)),
    ("random.categorical/int32", call("random.categorical", t(), 3, dtype={"dtype": "int32"}, values=False)),
    ("image.flip_left_right", call("image.flip_left_right", t("float32", (2, 3, 1)))),
    ("image.flip_up_down", call("image.flip_up_down", t("float32", (2, 3, 1)))),
    ("image.rot90", call("image.rot90", t("float32", (2, 3, 1)))),
    ("image.transpose", call("image.transpose", t("float32", (2, 3, 1)))),
    ("image.transpose_image", call("image.transpose_image", t("float32", (1, 2, 3, 1)))),
    ("image.central_crop", call("image.central_crop", t("float32", (4, 4, 1)), 0.5)),
    ("image.crop_to_bounding_box", call("image.crop_to_bounding_box", t("float32", (4, 4, 1)), 1, 1, 2, 2)),
    ("image.pad_to_bounding_box", call("image.pad_to_bounding_box", t("float32", (2, 2, 1)), 1, 0, 4, 3)),
    ("image.resize_with_crop_or_pad", call("image.resize_with_crop_or_pad", t("float32", (3, 3, 1)), 2, 4)),
    ("image.resize_image_with_crop_or_pad", call("image.resize_image_with_crop_or_pad", t("float32", (3, 3, 1)),
                                                 4, 2)),
    ("image.resize_bilinear", call("image.resize_bilinear", t("float32", (1, 2, 2, 1)), [4, 4])),
    ("image.resize_nearest_neighbor", call("image.resize_nearest_neighbor", t("float32", (1, 2, 2, 1)), [3, 3])),
    ("image.resize_images", call("image.resize_images", t("float32", (2, 2, 1)), [4, 4])),
    ("image.resize", call("image.resize", t("float32", (1, 2, 2, 1)), [3, 3])),
    ("image.resize/uint8", call("image.resize", t("int32", (1, 2, 2, 1), "pos"), [4, 4])),
    ("image.adjust_brightness", call("image.adjust_brightness", t("float32", (2, 2, 3), "prob"), 0.1)),
    ("image.adjust_contrast", call("image.adjust_contrast", t("float32", (2, 2, 3), "prob"), 2.0)),
    ("image.per_image_standardization", call("image.per_image_standardization", t("float32", (2, 2, 3)))),
    ("image.convert_image_dtype", call("image.convert_image_dtype", t("float32", (2, 2, 1), "prob"),
                                       {"dtype": "float64"})),
    ("image.random_flip_left_right", call("image.random_flip_left_right", t("float32", (2, 2, 1)), values=False)),
    ("image.random_flip_up_down", call("image.random_flip_up_down", t("float32", (2, 2, 1)), values=False)),
    ("image.random_brightness", call("image.random_brightness", t("float32", (2, 2, 1)), 0.2, values=False)),
    ("image.random_contrast", call("image.random_contrast", t("float32", (2, 2, 3)), 0.5, 1.5, values=False)),
    ("image.random_crop", call("image.random_crop", t("float32", (4, 4, 1)), [2, 2, 1], values=False)),
    ("losses.mean_squared_error", call("losses.mean_squared_error", t(), t(salt=1), grad=True)),
    ("losses.mean_squared_error/weights", call("losses.mean_squared_error", t(), t(salt=1), weights=2.0)),
    ("losses.absolute_difference", call("losses.absolute_difference", t(), t(salt=1))),
    ("losses.huber_loss", call("losses.huber_loss", t(), t(salt=1))),
    ("losses.log_loss", call("losses.log_loss", t(dom="prob"), t(dom="prob", salt=1))),
    ("losses.hinge_loss", call("losses.hinge_loss", t(dom="prob"), t())),
    ("losses.cosine_distance", call("losses.cosine_distance", t(), t(salt=1), axis=1)),
    ("losses.sigmoid_cross_entropy", call("losses.sigmoid_cross_entropy", t(dom="prob"), t())),
    ("losses.softmax_cross_entropy", call("losses.softmax_cross_entropy", t(dom="prob"), t())),
    ("losses.softmax_cross_entropy/smoothing", call("losses.softmax_cross_entropy", t(dom="prob"), t(),
                                                    label_smoothing=0.1)),
    ("losses.sparse_softmax_cross_entropy", call("losses.sparse_softmax_cross_entropy", t("int32", (2,), "idx3"),
                                                 t())),
    ("losses.compute_weighted_loss", call("losses.compute_weighted_loss", t())),
    ("losses.compute_weighted_loss/none", call("losses.compute_weighted_loss", t(), reduction="none")),
    ("losses.mean_squared_error/reduction_sum", call("losses.mean_squared_error", t(), t(salt=1),
                                                     reduction="weighted_sum")),
    ("layers.dense", call("layers.dense", t(), 2, kernel_initializer=init("constant", 0.5), grad=True)),
    ("layers.dense/unknown_batch", call("layers.dense", p(), 4, use_bias=False,
                                        kernel_initializer=init("ones"))),
    ("layers.dense/scoped", call("layers.dense", t(), 1, kernel_initializer=init("ones"), scope=["vs:net"])),
    ("layers.dense/named", call("layers.dense", t(), 1, name="out", kernel_initializer=init("ones"))),
    ("layers.conv2d", call("layers.conv2d", t("float32", IMG), 2, 3, padding="same",
                           kernel_initializer=init("constant", 0.1))),
    ("layers.conv2d/valid", call("layers.conv2d", t("float32", IMG), 1, [2, 2], strides=2,
                                 kernel_initializer=init("ones"))),
    ("layers.conv2d_transpose", call("layers.conv2d_transpose", t("float32", (1, 2, 2, 3)), 2, 2, strides=2,
                                     kernel_initializer=init("ones"))),
    ("layers.conv1d", call("layers.conv1d", t("float32", (1, 5, 2)), 3, 2, kernel_initializer=init("ones"))),
    ("layers.max_pooling2d", call("layers.max_pooling2d", t("float32", IMG), 2, 2)),
    ("layers.average_pooling2d", call("layers.average_pooling2d", t("float32", IMG), 2, 1, padding="same")),
    ("layers.max_pooling1d", call("layers.max_pooling1d", t("float32", (1, 4, 2)), 2, 2)),
    ("layers.average_pooling1d", call("layers.average_pooling1d", t("float32", (1, 4, 2)), 2, 2)),
    ("layers.flatten", call("layers.flatten", t("float32", IMG))),
    ("layers.flatten/unknown", call("layers.flatten", p("float32", (None, 2, 3), (1, 2, 3)))),
    ("layers.dropout/inference", call("layers.dropout", t())),
    ("layers.dropout/training", call("layers.dropout", t(), training=True, values=False)),
    ("layers.batch_normalization", call("layers.batch_normalization", t())),
    ("layers.batch_normalization/training", call("layers.batch_normalization", t(), training=True)),
    ("get_variable", call("get_variable", "w", [2, 3], initializer=init("ones"))),
    ("get_variable/scoped", call("get_variable", "w", [2], initializer=init("zeros"), scope=["vs:a", "vs:b"])),
    ("get_variable/name_scope", call("get_variable", "w", [2], initializer=init("zeros"), scope=["ns:n"])),
    ("get_variable/not_trainable", call("get_variable", "w", [1], trainable=False, initializer=init("ones"))),
    ("get_variable/int", call("get_variable", "i", [2], {"dtype": "int32"}, initializer=init("zeros"))),
    ("get_variable/no_shape", call("get_variable", "w")),
    ("Variable", call("Variable", t())),
    ("Variable/scoped", call("Variable", t(), name="v", scope=["ns:s"])),
    ("Variable/vs", call("Variable", t(), scope=["vs:s"])),
]


def cases():
    """{case id: case}, in a stable order."""
    found = {}
    for generate in (_unary_cases, _binary_cases, _reduce_cases, _operator_cases, _name_cases):
        found.update(generate())
    found.update((f"row/{name}", case) for name, case in ROWS)
    found.update({f"grad_ys/{name}": dict(case, grad="grad_ys") for name, case in ROWS if case["grad"]})
    return found


# -- building a case in a TF1-style module -----------------------------------------------------------------------

def values(dtype, shape, dom="any", salt=0):
    """The deterministic array an argument stands for."""
    k = np.arange(int(np.prod(shape, dtype=np.int64))).reshape(shape)
    base = (k * 7 + salt * 5 + 3) % 13
    if dom.startswith("idx"):
        return ((k * 3 + salt) % int(dom[3:])).astype(dtype)
    if dtype == "bool":
        return base % 2 == 0
    if dtype.startswith("int"):
        return {"pos": base + 1, "prob": base % 2}.get(dom, base - 6).astype(dtype)
    floats = {"any": (base - 6) * 0.37 + 0.1, "pos": base * 0.29 + 0.15, "unit": (base - 6) / 7.5,
              "ge1": 1.0 + base * 0.3, "prob": (base + 1) / 15.0}.get(dom)
    if dom == "diag":
        floats = base * 0.1 + 3.0 * np.eye(*shape[-2:])
    if dtype.startswith("complex"):  # an imaginary part of its own, so that conjugation shows
        return (floats + 1j * values("float64", shape, dom, salt + 1)).astype(dtype)
    return floats.astype(dtype)


def resolve(tf, path):
    target = tf
    for part in path.split("."):
        target = getattr(target, part)
    return target


class Builder:
    """Turns a case's JSON arguments into the module's tensors, remembering feeds and differentiable inputs."""

    def __init__(self, tf):
        self.tf, self.feed, self.inputs = tf, {}, []

    def arg(self, a):
        tf = self.tf
        if isinstance(a, dict) and "t" in a:
            x = tf.constant(values(a["t"], a["shape"], a["dom"], a["salt"]), dtype=getattr(tf, a["t"]))
        elif isinstance(a, dict) and "p" in a:
            x = tf.placeholder(getattr(tf, a["p"]), a["shape"])
            self.feed[x] = values(a["p"], a["feed"], a["dom"], a["salt"])
        elif isinstance(a, dict) and "py" in a:
            return a["py"]
        elif isinstance(a, dict) and "b64" in a:  # bytes (an encoded image), which JSON cannot hold as they are
            return base64.b64decode(a["b64"])
        elif isinstance(a, dict) and "np" in a:
            return np.dtype(a["np"]).type(a["v"])
        elif isinstance(a, dict) and "list" in a:
            return [self.arg(item) for item in a["list"]]
        elif isinstance(a, dict) and "dtype" in a:
            return getattr(tf, a["dtype"])
        elif isinstance(a, dict) and "init" in a:
            return getattr(tf, a["init"] + "_initializer")(*a["args"])
        elif isinstance(a, dict) and "var" in a:
            return tf.Variable(self.arg(a["var"]))
        elif isinstance(a, dict) and "fn" in a:
            return functools.partial(resolve(tf, a["fn"]), **{k: self.arg(v) for k, v in a["kwargs"].items()})
        elif isinstance(a, dict) and "make" in a:
            return resolve(tf, a["make"])(*[self.arg(v) for v in a["args"]],
                                          **{k: self.arg(v) for k, v in a["kwargs"].items()})
        elif isinstance(a, dict) and "s" in a:
            return tf.constant(a["s"], dtype=tf.string)
        elif isinstance(a, dict) and "sparse" in a:
            indices, value, shape = a["sparse"]
            return tf.SparseTensor(indices, self.arg(value), shape)
        elif isinstance(a, dict) and "build" in a:
            return a["build"](tf)
        elif isinstance(a, dict) and "sp_p" in a:
            x = tf.sparse_placeholder(getattr(tf, a["sp_p"]), a.get("shape"))
            indices, value, shape = a["feed"]
            self.feed[x] = tf.SparseTensorValue(indices, values(a["sp_p"], [len(indices)], "any", 0), shape)
            return x
        else:
            return a
        if x.dtype.name.startswith(("float", "complex")):
            self.inputs.append(x)
        return x


def flatten(result):
    if result is None:
        return []
    if hasattr(result, "indices") and hasattr(result, "dense_shape"):  # a SparseTensor: values (differentiated)
        return [result.values, result.indices, result.dense_shape]
    if hasattr(result, "dtype") and hasattr(result, "graph"):
        return [result]
    if isinstance(result, (list, tuple)):
        return [x for item in result for x in flatten(item)]
    return [result]


@contextlib.contextmanager
def scopes(tf, names):
    with contextlib.ExitStack() as stack:
        for name in names:
            kind, _, scope = name.partition(":")
            stack.enter_context(tf.variable_scope(scope) if kind == "vs" else tf.name_scope(scope))
        yield


def construct(tf, case, builder):
    if case["kind"] == "op":
        a = builder.arg(case["a"])
        if "b" not in case:
            return UNARY_OPERATORS[case["op"]](a)
        return OPERATORS[case["op"]](a, builder.arg(case["b"]))
    fn = resolve(tf, case["fn"])
    args = [builder.arg(a) for a in case["args"]]
    kwargs = {k: builder.arg(v) for k, v in case["kwargs"].items()}
    result = fn(*args, **kwargs)
    if case.get("method"):  # a method of what the call made (a table's lookup)
        name, *rest = case["method"]
        result = getattr(result, name)(*[builder.arg(a) for a in rest])
    if "pick" in case:  # one of the results (a metric's update_op, run once)
        result = result[case["pick"]]
    if case.get("then") is not None:  # a tf.data transformation, applied to its dataset
        result = result(*[builder.arg(a) for a in case["then"]])
    return result


DRAIN_LIMIT = 200  # elements read from a drained dataset at most: a case's datasets are short or repeat forever


def structure(tf, nested):
    """A tf.data element's structure with its leaves' classes: "(Tensor, {'a': SparseTensor})"."""
    if isinstance(nested, tuple):
        return "(" + ", ".join(structure(tf, x) for x in nested) + ")"
    if isinstance(nested, dict):
        return "{" + ", ".join(f"{k!r}: {structure(tf, nested[k])}" for k in sorted(nested)) + "}"
    return nested.__name__


def drained(tf, dataset):
    """What a drained case compares before running: its iterator, next element's tensors and structure."""
    iterator = tf.data.make_initializable_iterator(dataset)
    element = iterator.get_next()
    return iterator, [x for leaf in tf.nest.flatten(element) for x in flatten(leaf)], structure(
        tf, tf.data.get_output_classes(dataset))


def drain(tf, sess, iterator, fetches, feed):
    """Every element's values, and the error class that ended the reading (None past DRAIN_LIMIT)."""
    sess.run(iterator.initializer, feed)
    got = []
    for _ in range(DRAIN_LIMIT):
        try:
            got += sess.run(fetches, feed)
        except tf.errors.OutOfRangeError as end:
            return got, type(end).__name__
    return got, None


def failure(stage, error):
    """An exception as an answer: its class, the names of the classes it is (what `except` would catch), a gist."""
    return {"stage": stage, "error": type(error).__name__, "message": gist(error),
            "classes": [c.__name__ for c in type(error).__mro__[:-2]]}


def gist(error):
    """The line of an error's message that says what went wrong: TF's run errors open with where it was detected."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip() and not line.strip().startswith("[[")]
    if not lines:
        return ""
    return (lines[-1] if lines[0].startswith("Graph execution error") else lines[0])[:200]


def describe(x):
    if hasattr(x, "dtype") and hasattr(x, "graph"):
        shape = x.shape
        return {"dtype": x.dtype.name.replace("_ref", ""), "name": x.name,
                "shape": None if shape.ndims is None else [dimension(d) for d in shape]}
    if hasattr(x, "outputs") and hasattr(x, "type"):
        return {"op": x.name}
    return {"python": repr(x)}


def dimension(d):
    return getattr(d, "value", d)


def encode(array):
    try:
        array = np.asarray(array)
    except ValueError:  # a fetched structure, not one array
        return {"dtype": "object", "value": None}
    if array.dtype.kind in "SO" and all(isinstance(v, bytes) for v in array.astype(object).reshape(-1)):
        text = [v.decode("latin-1") for v in array.astype(object).reshape(-1)]
        return {"dtype": "string", "value": np.array(text, dtype=object).reshape(array.shape).tolist()}
    if array.dtype.kind in "SUO":
        return {"dtype": "object", "value": None}
    if array.dtype.kind == "c":  # JSON has no complex numbers: the real and imaginary parts in a last axis
        return {"dtype": array.dtype.name, "value": np.stack([array.real, array.imag], -1).tolist()}
    return {"dtype": array.dtype.name, "value": array.tolist()}


def probe(tf, case):
    """What TensorFlow (or ringflow) does with one case, as JSON."""
    graph = tf.Graph()
    builder = Builder(tf)
    with graph.as_default():
        if case.get("graph_seed") is not None:
            tf.set_random_seed(case["graph_seed"])
        try:
            with scopes(tf, case.get("scope", [])):
                if case.get("drain"):
                    iterator, outs, classes = drained(tf, construct(tf, case, builder))
                else:
                    outs = flatten(construct(tf, case, builder))
                if case.get("twice"):
                    again = flatten(construct(tf, case, builder))
                    return {"stage": "ok", "names": [outs[0].name, again[0].name]}
        except Exception as error:  # every exception is an answer to record
            return failure("construct", error)
        found = {"stage": "ok", "outputs": [describe(x) for x in outs],
                 **({"structure": classes} if case.get("drain") else {}),
                 "collections": {k: len(tf.get_collection(k)) for k in KEYS if tf.get_collection(k)},
                 "variables": [v.name for v in tf.global_variables()]}
        if case.get("python_values"):  # a call answering in Python values (a setting, a device list): their reprs
            found["python"] = [describe(x).get("python") for x in outs]
        tensors = [x for x in outs if "dtype" in describe(x)]
        grads = []
        if case.get("grad") and tensors:
            grad_ys = None
            if case["grad"] == "grad_ys":
                shape = describe(tensors[0])["shape"]
                grad_ys = tf.constant(values(tensors[0].dtype.name, shape, "any", 2), dtype=tensors[0].dtype)
            try:
                grads = tf.gradients(tensors[0], builder.inputs, grad_ys=grad_ys)
            except Exception as error:
                return dict(found, **failure("gradients", error))
            found["grads"] = [None if g is None else describe(g) for g in grads]
        fetches = tensors + [g for g in grads if g is not None]
        if not graph.get_operations():  # a call that builds nothing (a setting, a device list): TF runs no session
            return dict(found, values=[])
        try:
            with tf.Session(graph=graph) as sess:
                if tf.global_variables():
                    sess.run(tf.global_variables_initializer())
                if tf.local_variables():  # a metric's running totals
                    sess.run(tf.local_variables_initializer())
                if tf.get_collection("table_initializer"):
                    sess.run(tf.tables_initializer())
                if case.get("drain"):
                    got, found["end"] = drain(tf, sess, iterator, fetches, builder.feed)
                else:
                    got = [v for _ in range(case.get("runs", 1)) for v in sess.run(fetches, builder.feed)]
        except Exception as error:
            return dict(found, **failure("run", error))
        if case.get("values", True):
            found["values"] = [dict(encode(v), exact=True) if case.get("exact") else encode(v) for v in got]
        else:
            found["values"] = [{"dtype": np.asarray(v).dtype.name, "shape": list(np.shape(v))} for v in got]
        return found
