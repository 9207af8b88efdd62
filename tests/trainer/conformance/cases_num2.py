"""tf.distributions, tf.quantization and the rest of the numeric namespaces' names checked against real TensorFlow:
values, dtypes and static shapes, gradients, sample shapes (and seeded draws bit for bit), and TF's errors.
Recorded into fixtures/tf_oracle_num2.json (record_tf_oracle.py --family num2)."""
import base64

import numpy as np

from .cases import call, p, t

D = "distributions."
# (constructor, its parameters, a value in its support): scalar families, one batch of 3
SCALAR = {
    "Normal": ([t("float32", (3,)), t("float32", (3,), "pos", 1)], t("float32", (3,), salt=2)),
    "Laplace": ([t("float32", (3,)), t("float32", (3,), "pos", 1)], t("float32", (3,), salt=2)),
    "Uniform": ([t("float32", (3,)), {"py": 4.0}], t("float32", (3,), "pos", 2)),
    "Gamma": ([t("float32", (3,), "pos"), t("float32", (3,), "pos", 1)], t("float32", (3,), "pos", 2)),
    "Exponential": ([t("float32", (3,), "pos")], t("float32", (3,), "pos", 2)),
    "Beta": ([t("float32", (3,), "pos"), t("float32", (3,), "pos", 1)], t("float32", (3,), "prob", 2)),
    "StudentT": ([t("float32", (3,), "ge1"), t("float32", (3,)), t("float32", (3,), "pos", 1)],
                 t("float32", (3,), salt=2)),
}
STATISTICS = ["mean", "stddev", "variance", "entropy", "mode"]
AT_VALUE = ["log_prob", "prob", "cdf", "log_cdf", "survival_function", "log_survival_function"]
UNDEFINED_MODE = {"Uniform"}


def method(fn, args, name, *rest, **kwargs):
    return dict(call(D + fn, *args, **kwargs), method=[name, *rest])


def _scalar_families():
    for fn, (params, x) in SCALAR.items():
        for stat in STATISTICS:
            yield f"{fn}/{stat}", method(fn, params, stat)
        for name in AT_VALUE:
            yield f"{fn}/{name}", method(fn, params, name, x)
        yield f"{fn}/log_prob/grad", method(fn, [dict(a, t="float64") if "t" in a else a for a in params],
                                            "log_prob", dict(x, t="float64"), grad=True)
        yield f"{fn}/log_prob/broadcast", method(fn, params, "log_prob", t("float32", (2, 1), x["dom"], 3))
        yield f"{fn}/log_prob/unknown_dim", method(fn, params, "log_prob", p("float32", (None, 3), (2, 3),
                                                                             x["dom"], 3))
        yield f"{fn}/log_prob/float64", method(fn, [dict(a, t="float64") if "t" in a else a for a in params],
                                               "log_prob", {"py": 0.5})
    for fn in ("Normal", "Laplace", "Uniform", "Exponential"):
        params, _ = SCALAR[fn]
        exact = fn in ("Normal", "Uniform")  # the others pass TF's draws through log, a last bit apart from numpy's
        yield f"{fn}/sample", dict(method(fn, params, "sample", [2], 7), graph_seed=1, exact=exact)
        yield f"{fn}/sample/scalar", dict(method(fn, params, "sample", 4, 3), graph_seed=2, exact=exact)
    yield "Normal/cdf/tails", method("Normal", [{"py": 0.0}, {"py": 1.0}], "log_cdf",
                                     {"py": [-30.0, -12.0, -3.0, 0.0, 6.0, 9.0]})
    yield "Normal/cdf/tails64", method("Normal", [t("float64", ()), {"np": "float64", "v": 1.0}], "log_cdf",
                                       {"py": [-40.0, -22.0, -3.0, 0.0, 6.0, 9.0]})
    yield "Normal/quantile", method("Normal", SCALAR["Normal"][0], "quantile", t("float32", (3,), "prob"))
    yield "Normal/mixed_dtypes", call(D + "Normal", t("float32", (3,)), t("float64", (3,), "pos"))
    yield "Normal/int_parameters", call(D + "Normal", {"py": 0}, {"py": 1})
    yield "Normal/zero_size", method("Normal", [t("float32", (0, 3)), {"py": 1.0}], "log_prob", {"py": 0.5})
    yield "Normal/batch_shape_tensor", method("Normal", [p("float32", (None, 3), (2, 3)), {"py": 1.0}],
                                              "batch_shape_tensor")
    yield "Normal/sample/unknown_batch", dict(method("Normal", [p("float32", (None, 3), (2, 3)), {"py": 1.0}],
                                                     "sample", [2], 5), graph_seed=3, exact=True)
    yield "StudentT/mean/undefined", method("StudentT", [t("float32", (3,), "prob"), {"py": 0.0}, {"py": 1.0}],
                                            "mean")
    yield "StudentT/variance/undefined", method("StudentT", [{"py": [0.5, 1.5, 3.0]}, {"py": 0.0}, {"py": 1.0}],
                                                "variance")
    yield "Gamma/mode/undefined", method("Gamma", [{"py": [0.5, 1.5, 3.0]}, {"py": 2.0}], "mode")
    yield "Beta/mode/undefined", method("Beta", [{"py": [0.5, 1.5, 3.0]}, {"py": 2.0}], "mode")


# (constructor, parameters, a value): the discrete and vector families
OTHERS = {
    "Bernoulli/probs": ("Bernoulli", [], {"probs": t("float32", (3,), "prob")}, t("int32", (3,), "idx2")),
    "Bernoulli/logits": ("Bernoulli", [], {"logits": t("float32", (2, 3))}, {"py": [1, 0, 1]}),
    "Categorical/logits": ("Categorical", [], {"logits": t("float32", (2, 4))}, t("int32", (2,), "idx4")),
    "Categorical/probs": ("Categorical", [], {"probs": {"py": [0.1, 0.2, 0.7]}}, {"py": [[0, 2], [1, 1]]}),
    "Dirichlet": ("Dirichlet", [t("float32", (2, 3), "pos")], {}, {"py": [0.2, 0.3, 0.5]}),
    "Multinomial": ("Multinomial", [{"py": 4.0}], {"probs": {"py": [[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]]}},
                    {"py": [1.0, 1.0, 2.0]}),
    "DirichletMultinomial": ("DirichletMultinomial", [{"py": 3.0}, t("float32", (2, 3), "pos")], {},
                             {"py": [1.0, 0.0, 2.0]}),
}
OTHER_STATISTICS = {"Bernoulli": ["mean", "variance", "stddev", "entropy", "mode"],
                    "Categorical": ["entropy", "mode"],
                    "Dirichlet": ["mean", "variance", "covariance", "entropy", "mode"],
                    "Multinomial": ["mean", "variance", "covariance"],
                    "DirichletMultinomial": ["mean", "variance", "covariance"]}


def _other_families():
    for label, (fn, args, kwargs, x) in OTHERS.items():
        for stat in OTHER_STATISTICS[fn]:
            yield f"{label}/{stat}", method(fn, args, stat, **kwargs)
        yield f"{label}/log_prob", method(fn, args, "log_prob", x, **kwargs)
        yield f"{label}/prob", method(fn, args, "prob", x, **kwargs)
    yield "Categorical/cdf", method("Categorical", [], "cdf", {"py": [0, 1, 2]}, probs={"py": [0.1, 0.2, 0.7]})
    yield "Categorical/log_prob/grad", method("Categorical", [], "log_prob", {"py": [1, 0]},
                                              logits=t("float64", (2, 3)), grad=True)
    yield "Bernoulli/log_prob/grad", method("Bernoulli", [], "log_prob", {"py": [1, 0, 1]},
                                            logits=t("float64", (3,)), grad=True)
    yield "Dirichlet/log_prob/grad", method("Dirichlet", [t("float64", (3,), "pos")], "log_prob",
                                            t("float64", (3,), "prob", 1), grad=True)
    yield "Bernoulli/both", call(D + "Bernoulli", logits={"py": 0.0}, probs={"py": 0.5})
    yield "Bernoulli/neither", call(D + "Bernoulli")
    yield "Bernoulli/int_logits", call(D + "Bernoulli", logits={"py": [1, 2]})
    yield "Bernoulli/float_dtype", method("Bernoulli", [], "sample", 3, 4, probs={"py": [0.3, 0.9]},
                                          dtype={"dtype": "float32"})
    for label, (fn, args, kwargs, _) in OTHERS.items():
        if fn not in ("Dirichlet", "DirichletMultinomial"):
            # TF draws a batch of Multinomials in a map_fn whose one op's stream runs on from row to row
            yield f"{label}/sample", dict(method(fn, args, "sample", [2], 11, **kwargs), graph_seed=4, exact=True,
                                          values=fn != "Multinomial")
    yield "Multinomial/sample/one", dict(method("Multinomial", [{"py": 5.0}], "sample", [3], 2,
                                                logits={"py": [0.0, 1.0, -1.0]}), graph_seed=6, exact=True)
    yield "Categorical/sample/int64", dict(method("Categorical", [], "sample", 3, 2, logits=t("float32", (2, 4)),
                                                  dtype={"dtype": "int64"}), graph_seed=5, exact=True)


PAIRS = {
    "Normal": ([t("float32", (3,)), t("float32", (3,), "pos", 1)], [{"py": 0.5}, {"py": 2.0}]),
    "Gamma": ([t("float32", (3,), "pos"), t("float32", (3,), "pos", 1)], [{"py": 1.5}, {"py": 2.0}]),
    "Beta": ([t("float32", (3,), "pos"), t("float32", (3,), "pos", 1)], [{"py": 1.5}, {"py": 2.0}]),
    "Dirichlet": ([t("float32", (2, 3), "pos")], [{"py": [1.0, 2.0, 3.0]}]),
}


def _kl():
    for fn, (a, b) in PAIRS.items():
        first = {"make": D + fn, "args": a, "kwargs": {}}
        second = {"make": D + fn, "args": b, "kwargs": {}}
        yield f"kl_divergence/{fn}", call(D + "kl_divergence", first, second)
    yield "kl_divergence/Exponential_Gamma", call(D + "kl_divergence",
                                                  {"make": D + "Exponential", "args": [{"py": 2.0}], "kwargs": {}},
                                                  {"make": D + "Gamma", "args": [{"py": 1.5}, {"py": 1.0}],
                                                   "kwargs": {}})
    for fn in ("Bernoulli", "Categorical"):
        shape = (3,) if fn == "Bernoulli" else (2, 3)
        first = {"make": D + fn, "args": [t("float64", shape)], "kwargs": {}}
        second = {"make": D + fn, "args": [t("float64", shape, salt=1)], "kwargs": {}}
        yield f"kl_divergence/{fn}", call(D + "kl_divergence", first, second, grad=True)
    yield "kl_divergence/unregistered", call(D + "kl_divergence",
                                             {"make": D + "Normal", "args": [{"py": 0.0}, {"py": 1.0}], "kwargs": {}},
                                             {"make": D + "Laplace", "args": [{"py": 0.0}, {"py": 1.0}],
                                              "kwargs": {}})
    yield "kl_divergence/no_nan_check", call(D + "kl_divergence",
                                             {"make": D + "Normal", "args": [{"py": 0.0}, {"py": 1.0}], "kwargs": {}},
                                             {"make": D + "Normal", "args": [{"py": 1.0}, {"py": 2.0}], "kwargs": {}},
                                             allow_nan_stats=False)


Q = "quantization."
WIDE = t("float32", (4, 5), salt=1)  # -2.1 .. 2.3: some inside, some outside the ranges below


def _quantization():
    for fn in ("fake_quant_with_min_max_args", Q + "fake_quant_with_min_max_args"):
        yield fn, call(fn, WIDE, min=-1.3, max=1.7, grad=True)
    q = Q + "fake_quant_with_min_max_args"
    yield f"{q}/default", call(q, t("float32", (2, 3), salt=3))
    yield f"{q}/narrow_4bit", call(q, WIDE, min=-0.5, max=2.0, num_bits=4, narrow_range=True)
    yield f"{q}/positive_range", call(q, WIDE, min=0.3, max=1.9, grad=True)
    yield f"{q}/negative_range", call(q, WIDE, min=-1.9, max=-0.2)
    yield f"{q}/unknown_dim", call(q, p("float32", (None, 5), (4, 5), salt=1), min=-1.0, max=1.0)
    yield f"{q}/zero_size", call(q, t("float32", (0, 3)))
    yield f"{q}/min_above_max", call(q, WIDE, min=1.0, max=-1.0)
    yield f"{q}/num_bits_1", call(q, WIDE, num_bits=1)
    yield f"{q}/float64", call(q, t("float64", (2, 3)))
    for fn in ("fake_quant_with_min_max_args_gradient", Q + "fake_quant_with_min_max_args_gradient"):
        yield fn, call(fn, t("float32", (4, 5), salt=2), WIDE, min=-1.3, max=1.7, num_bits=5)
    lo, hi = t("float32", (), salt=4), t("float32", (), "pos", 5)  # -0.86, 2.75
    for fn in ("fake_quant_with_min_max_vars", Q + "fake_quant_with_min_max_vars"):
        yield fn, call(fn, WIDE, lo, hi, grad=True)
    v = Q + "fake_quant_with_min_max_vars"
    yield f"{v}/narrow", call(v, WIDE, {"py": -1.0}, {"py": 1.0}, num_bits=3, narrow_range=True)
    yield f"{v}/fed_range", call(v, WIDE, p("float32", (), (), salt=4), p("float32", (), (), "pos", 5))
    yield f"{v}/vector_range", call(v, WIDE, t("float32", (5,)), t("float32", (5,), "pos"))
    yield f"{v}/min_above_max", call(v, WIDE, {"py": 1.0}, {"py": -1.0})
    for fn in ("fake_quant_with_min_max_vars_gradient", Q + "fake_quant_with_min_max_vars_gradient"):
        yield fn, call(fn, t("float32", (4, 5), salt=2), WIDE, lo, hi, num_bits=6)
    lo5, hi5 = t("float32", (5,), salt=4), t("float32", (5,), "pos", 5)
    for fn in ("fake_quant_with_min_max_vars_per_channel", Q + "fake_quant_with_min_max_vars_per_channel"):
        yield fn, call(fn, WIDE, lo5, hi5, grad=True)
    c = Q + "fake_quant_with_min_max_vars_per_channel"
    yield f"{c}/rank3", call(c, t("float32", (2, 3, 4), salt=1), t("float32", (4,)), t("float32", (4,), "pos", 1),
                             num_bits=7)
    yield f"{c}/scalar_range", call(c, WIDE, lo, hi)
    for fn in ("fake_quant_with_min_max_vars_per_channel_gradient",
               Q + "fake_quant_with_min_max_vars_per_channel_gradient"):
        yield fn, call(fn, t("float32", (4, 5), salt=2), WIDE, lo5, hi5, narrow_range=True)
    for fn in ("quantize_and_dequantize", "quantize_and_dequantize_v2"):
        f = Q + fn
        yield f, call(f, WIDE, {"py": -1.0}, {"py": 1.0}, grad=True)
        yield f"{f}/range_given", call(f, WIDE, {"py": -1.0}, {"py": 1.5}, range_given=True, grad=True)
        yield f"{f}/unsigned", call(f, t("float32", (4, 5), "pos"), {"py": 0.0}, {"py": 1.0}, signed_input=False,
                                    num_bits=4)
        yield f"{f}/half_up_narrow", call(f, WIDE, {"py": -2.0}, {"py": 2.0}, range_given=True,
                                          round_mode="HALF_UP", narrow_range=True, num_bits=3)
        yield f"{f}/float64", call(f, t("float64", (3, 4)), {"py": 0.0}, {"py": 0.0})
        yield f"{f}/axis", call(f, WIDE, t("float32", (4,), salt=4), t("float32", (4,), "pos", 5), axis=0,
                                range_given=True, grad=True)
        yield f"{f}/axis_from_input", call(f, WIDE, {"py": [0.0] * 5}, {"py": [0.0] * 5}, axis=-1)
        yield f"{f}/bad_range", call(f, WIDE, {"py": 1.0}, {"py": -1.0}, range_given=True)
        yield f"{f}/int", call(f, t("int32"), {"py": 0}, {"py": 1})


L = "linalg."
SQUARE = t("float64", (3, 3), "diag")  # 3 on the diagonal: well conditioned
TRIDIAG = [[0.5, -1.0, 2.0, 0.25, 9.0], [4.0, 3.0, -5.0, 4.5, 6.0], [9.0, 1.5, 0.5, -2.0, 1.0]]


def const(value, dtype="float32"):
    return {"make": "constant", "args": [{"py": value}], "kwargs": {"dtype": {"dtype": dtype}}}


def _linalg():
    yield "lu", call(L + "lu", SQUARE)
    yield "lu/float32_batch", call(L + "lu", t("float32", (2, 4, 4)))
    yield "lu/int64_perm", call(L + "lu", t("float64", (3, 3)), output_idx_type={"dtype": "int64"})
    yield "lu/ties", call(L + "lu", {"py": [[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0], [1.0, -4.0, 0.0]]})
    yield "lu/unknown_batch", call(L + "lu", p("float32", (None, 3, 3), (2, 3, 3), "diag"))
    yield "lu/zero_size", call(L + "lu", t("float32", (0, 2, 2)))
    yield "lu/not_square", call(L + "lu", t("float32", (2, 3)))
    yield "lu/int", call(L + "lu", t("int32", (2, 2)))
    perm = {"py": [2, 0, 1]}
    yield "lu_solve", call(L + "lu_solve", SQUARE, perm, t("float64", (3, 2), salt=1), grad=True)
    yield "lu_solve/batch", call(L + "lu_solve", t("float32", (2, 3, 3), "diag"), {"py": [[2, 0, 1], [0, 1, 2]]},
                                 t("float32", (2, 3, 1), salt=1))
    yield "lu_solve/broadcast_rhs", call(L + "lu_solve", t("float64", (2, 3, 3), "diag"),
                                         {"py": [[1, 2, 0], [0, 2, 1]]}, t("float64", (3, 2), salt=1))
    yield "lu_solve/vector_rhs", call(L + "lu_solve", SQUARE, perm, t("float64", (3,), salt=1))
    yield "lu_solve/mismatch", call(L + "lu_solve", SQUARE, perm, t("float64", (4, 2), salt=1))
    yield "lu_matrix_inverse", call(L + "lu_matrix_inverse", SQUARE, perm, grad=True)
    yield "lu_matrix_inverse/batch", call(L + "lu_matrix_inverse", t("float32", (2, 3, 3), "diag"),
                                          {"py": [[2, 0, 1], [1, 2, 0]]})
    yield "lu_reconstruct", call(L + "lu_reconstruct", SQUARE, perm, grad=True)
    yield "lu_reconstruct/batch", call(L + "lu_reconstruct", t("float32", (2, 3, 3)), {"py": [[2, 0, 1], [1, 2, 0]]})
    short = {"list": [const(TRIDIAG[0][:-1]), const(TRIDIAG[1]), const(TRIDIAG[2][1:])]}
    full = {"list": [const(row) for row in TRIDIAG]}
    dense = const((np.diag(TRIDIAG[1]) + np.diag(TRIDIAG[0][:-1], 1) + np.diag(TRIDIAG[2][1:], -1)).tolist())
    for fmt, diagonals in (("compact", const(TRIDIAG)), ("sequence", full), ("matrix", dense)):
        yield f"tridiagonal_matmul/{fmt}", call(L + "tridiagonal_matmul", diagonals, t("float32", (5, 2)),
                                               diagonals_format=fmt)
        yield f"tridiagonal_solve/{fmt}", call(L + "tridiagonal_solve", diagonals, t("float32", (5, 2)),
                                              diagonals_format=fmt)
    yield "tridiagonal_matmul/short_sequence", call(L + "tridiagonal_matmul", short, t("float32", (5, 2)),
                                                    diagonals_format="sequence")
    yield "tridiagonal_solve/short_sequence", call(L + "tridiagonal_solve", short, t("float32", (5, 2)),
                                                   diagonals_format="sequence")
    yield "tridiagonal_matmul/grad", call(L + "tridiagonal_matmul", t("float64", (2, 3, 4)), t("float64", (2, 4, 3)),
                                          grad=True)
    yield "tridiagonal_solve/grad", call(L + "tridiagonal_solve", {"make": "add", "args": [
        const([[[0.0] * 4, [6.0] * 4, [0.0] * 4]], "float64"), t("float64", (1, 3, 4))], "kwargs": {}},
        t("float64", (1, 4, 2), salt=1), grad=True)
    yield "tridiagonal_solve/vector_rhs", call(L + "tridiagonal_solve", const(TRIDIAG, "float64"), t("float64", (5,)))
    yield "tridiagonal_solve/transpose_rhs", call(L + "tridiagonal_solve", const(TRIDIAG, "float64"),
                                                  t("float64", (2, 5)), transpose_rhs=True)
    yield "tridiagonal_solve/no_pivoting", call(L + "tridiagonal_solve", const(TRIDIAG, "float64"),
                                                t("float64", (5, 1)), partial_pivoting=False)
    yield "tridiagonal_solve/singular", call(L + "tridiagonal_solve", const([[1.0, 1.0, 0.0], [1.0, 1.0, 1.0],
                                                                             [0.0, 1.0, 1.0]], "float64"),
                                             t("float64", (3, 1)))
    yield "tridiagonal_solve/four_diagonals", call(L + "tridiagonal_solve", t("float64", (4, 5)), t("float64", (5, 1)))
    yield "tridiagonal_solve/rank", call(L + "tridiagonal_solve", const(TRIDIAG, "float64"), t("float64", (1, 1, 5, 1)))
    yield "sqrtm", call(L + "sqrtm", SQUARE, grad=True)
    yield "sqrtm/float32_batch", call(L + "sqrtm", t("float32", (2, 3, 3), "diag"))
    yield "sqrtm/spd", call(L + "sqrtm", {"py": [[4.0, 1.0], [1.0, 3.0]]})
    yield "matrix_square_root", call("matrix_square_root", {"py": [[9.0, 0.0], [0.0, 4.0]]})
    yield "sqrtm/not_square", call(L + "sqrtm", t("float32", (2, 3)))
    yield "logm", call(L + "logm", t("complex128", (3, 3), "diag"))
    yield "logm/complex64", call(L + "logm", t("complex64", (2, 2, 2), "diag"))
    yield "logm/float", call(L + "logm", SQUARE)
    alpha, beta = {"py": [1.0, 2.0, -1.0, 0.5]}, {"py": [0.5, 1.5, -0.25]}
    yield "eigh_tridiagonal", call(L + "eigh_tridiagonal", alpha, beta)
    yield "eigh_tridiagonal/float64", call(L + "eigh_tridiagonal", t("float64", (5,)), t("float64", (4,), salt=1))
    yield "eigh_tridiagonal/select_i", call(L + "eigh_tridiagonal", alpha, beta, select="i", select_range=[1, 2])
    yield "eigh_tridiagonal/select_v", call(L + "eigh_tridiagonal", alpha, beta, select="v",
                                            select_range=[-0.5, 2.0])
    yield "eigh_tridiagonal/vectors_shape", call(L + "eigh_tridiagonal", alpha, beta, eigvals_only=False,
                                                 values=False)
    yield "eigh_tridiagonal/bad_beta", call(L + "eigh_tridiagonal", alpha, {"py": [1.0]})


VOL = (1, 4, 4, 4, 2)


def _checked_aliases():
    """Names ringflow had without a case of their own: convolutions and pools, samplers' bookkeeping, linalg."""
    yield "nn.conv3d", call("nn.conv3d", t("float64", VOL), t("float64", (2, 2, 2, 2, 3), salt=1),
                            [1, 1, 1, 1, 1], "SAME", grad=True)
    yield "nn.conv3d/valid_stride", call("nn.conv3d", t("float32", VOL), t("float32", (3, 3, 3, 2, 1), salt=1),
                                         [1, 2, 2, 2, 1], "VALID")
    yield "nn.conv3d_transpose", call("nn.conv3d_transpose", t("float64", (1, 2, 2, 2, 3)),
                                      t("float64", (2, 2, 2, 2, 3), salt=1), [1, 4, 4, 4, 2], [1, 2, 2, 2, 1],
                                      "SAME", grad=True)
    yield "nn.avg_pool3d", call("nn.avg_pool3d", t("float32", VOL), [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID",
                                grad=True)
    yield "nn.max_pool3d", call("nn.max_pool3d", t("float32", VOL), [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "SAME")
    yield "nn.max_pool3d/grad", call("nn.max_pool3d", t("float32", (1, 3, 2, 2, 1)), [1, 2, 2, 2, 1],
                                     [1, 1, 1, 1, 1], "SAME", grad=True)  # 12 distinct values: no ties
    yield "nn.depthwise_conv2d", call("nn.depthwise_conv2d", t("float64", (1, 5, 5, 2)),
                                      t("float64", (3, 3, 2, 2), salt=1), [1, 1, 1, 1], "SAME", grad=True)
    yield "nn.depthwise_conv2d/rate", call("nn.depthwise_conv2d", t("float32", (1, 6, 6, 2)),
                                           t("float32", (2, 2, 2, 1), salt=1), [1, 1, 1, 1], "VALID", rate=[2, 2])
    yield "nn.depthwise_conv2d_native", call("nn.depthwise_conv2d_native", t("float32", (2, 5, 5, 3)),
                                             t("float32", (2, 2, 3, 2), salt=1), [1, 2, 2, 1], "SAME")
    yield "nn.separable_conv2d", call("nn.separable_conv2d", t("float64", (1, 5, 5, 2)),
                                      t("float64", (3, 3, 2, 2), salt=1), t("float64", (1, 1, 4, 3), salt=2),
                                      [1, 1, 1, 1], "VALID", grad=True)
    for fn in ("nn.conv3d_backprop_filter", "nn.conv3d_backprop_filter_v2"):
        yield fn, call(fn, t("float64", VOL), [2, 2, 2, 2, 3], t("float64", (1, 4, 4, 4, 3), salt=1),
                       [1, 1, 1, 1, 1], "SAME", grad=True)
    yield "nn.conv3d_backprop_filter/stride_valid", call("nn.conv3d_backprop_filter", t("float32", VOL),
                                                         [3, 3, 3, 2, 1], t("float32", (1, 1, 1, 1, 1), salt=1),
                                                         [1, 2, 2, 2, 1], "VALID")
    yield "nn.atrous_conv2d_transpose", call("nn.atrous_conv2d_transpose", t("float64", (1, 5, 5, 2)),
                                             t("float64", (3, 3, 3, 2), salt=1), [1, 5, 5, 3], 2, "SAME", grad=True)
    yield "nn.atrous_conv2d_transpose/valid", call("nn.atrous_conv2d_transpose", t("float32", (2, 2, 3, 2)),
                                                   t("float32", (2, 2, 1, 2), salt=1), [2, 4, 5, 1], 2, "VALID")
    yield "nn.atrous_conv2d_transpose/rate1", call("nn.atrous_conv2d_transpose", t("float32", (1, 3, 3, 2)),
                                                   t("float32", (2, 2, 1, 2), salt=1), [1, 3, 3, 1], 1, "SAME")
    yield "nn.atrous_conv2d_transpose/rate0", call("nn.atrous_conv2d_transpose", t("float32", (1, 3, 3, 2)),
                                                   t("float32", (2, 2, 1, 2), salt=1), [1, 3, 3, 1], 0, "SAME")
    yield "nn.compute_accidental_hits", call("nn.compute_accidental_hits", {"py": [[1, 2], [0, 3]]},
                                             {"py": [2, 0, 5, 3]}, 2)
    yield "linalg.cross", call("linalg.cross", t("float64", (2, 3)), t("float64", (2, 3), salt=1), grad=True)
    yield "linalg.eigvalsh", call("linalg.eigvalsh", {"py": [[2.0, 1.0], [1.0, 3.0]]})
    yield "linalg.eigh/diagonal", call("linalg.eigh", {"py": [[5.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]})
    yield "linalg.tensor_diag", call("linalg.tensor_diag", t("float32", (2, 2)))
    yield "signal.inverse_stft_window_fn", dict(call("signal.inverse_stft_window_fn", 4),
                                                method=["__call__", 8, {"dtype": "float32"}])


def _nn():
    img, filt = t("float64", (2, 5, 5, 3)), t("float64", (2, 2, 3), salt=1)
    yield "nn.dilation2d", call("nn.dilation2d", img, filt, [1, 1, 1, 1], [1, 1, 1, 1], "SAME", grad=True)
    yield "nn.dilation2d/rates_stride", call("nn.dilation2d", t("float32", (1, 6, 7, 2)), t("float32", (2, 3, 2)),
                                             [1, 2, 1, 1], [1, 2, 2, 1], "VALID", grad=True)
    yield "nn.dilation2d/same_stride", call("nn.dilation2d", t("float32", (1, 6, 7, 2), salt=2),
                                            t("float32", (3, 2, 2)), [1, 2, 3, 1], [1, 1, 1, 1], "SAME")
    yield "nn.dilation2d/unknown_batch", call("nn.dilation2d", p("float32", (None, 5, 5, 3), (2, 5, 5, 3)),
                                              t("float32", (2, 2, 3)), [1, 1, 1, 1], [1, 1, 1, 1], "SAME")
    yield "nn.dilation2d/bad_strides", call("nn.dilation2d", img, filt, [2, 1, 1, 1], [1, 1, 1, 1], "SAME")
    yield "nn.erosion2d", call("nn.erosion2d", img, filt, [1, 1, 1, 1], [1, 1, 1, 1], "SAME", grad=True)
    yield "nn.erosion2d/valid", call("nn.erosion2d", t("float32", (1, 6, 6, 1)), t("float32", (3, 2, 1), salt=1),
                                     [1, 2, 2, 1], [1, 1, 2, 1], "VALID")
    yield "nn.max_pool_with_argmax", call("nn.max_pool_with_argmax", t("float32", (2, 4, 5, 3)), [1, 2, 2, 1],
                                          [1, 2, 2, 1], "SAME", grad=True)
    yield "nn.max_pool_with_argmax/overlap", call("nn.max_pool_with_argmax", t("float32", (1, 5, 5, 2), salt=3),
                                                  [1, 3, 3, 1], [1, 1, 1, 1], "VALID", Targmax={"dtype": "int32"})
    yield "nn.max_pool_with_argmax/batch_index", call("nn.max_pool_with_argmax", t("float32", (2, 4, 4, 1)),
                                                      [1, 2, 2, 1], [1, 2, 2, 1], "VALID",
                                                      include_batch_in_index=True)


def _special():
    grid_a = {"py": [0.3, 1.0, 2.5, 7.0, 30.0, 120.0]}
    grid_x = {"py": [0.05, 1.0, 3.0, 6.5, 28.0, 140.0]}
    for fn in ("igamma", "igammac", "math.igamma", "math.igammac"):
        yield fn, call(fn, t("float32", (2, 3), "pos"), t("float32", (2, 3), "pos", 1))
        yield f"{fn}/grid", call(fn, t("float64", (6, 1), "pos", 2), const(grid_x["py"], "float64"))
        yield f"{fn}/grad", call(fn, t("float64", (2, 3), "pos"), t("float64", (3,), "pos", 1), grad=True)
    for fn in ("math.igamma", "math.igammac"):
        yield f"{fn}/wide", call(fn, const(grid_a["py"], "float64"), const(grid_x["py"], "float64"))
        yield f"{fn}/wide_grad", call(fn, const(grid_a["py"], "float64"), const(grid_x["py"], "float64"), grad=True)
    yield "math.igamma/edges", call("math.igamma", {"py": [1.0, 2.0, -1.0, 0.0, 2.0, 3.0]},
                                    {"py": [0.0, -1.0, 1.0, 1.0, float("inf"), float("nan")]})
    yield "math.igamma/int", call("math.igamma", t("int32"), t("int32"))
    for fn in ("betainc", "math.betainc"):
        yield fn, call(fn, t("float32", (2, 3), "pos"), t("float32", (2, 3), "pos", 1), t("float32", (2, 3), "prob"))
        yield f"{fn}/grad", call(fn, t("float64", (2, 3), "pos"), t("float64", (2, 3), "pos", 1),
                                 t("float64", (2, 3), "prob", 2), grad=True)
    # float64: TF's float32 kernel is itself some 3e-5 off for large a and b
    yield "math.betainc/wide", call("math.betainc", const([0.2, 1.0, 5.0, 40.0, 300.0, 2.0], "float64"),
                                    const([0.7, 3.0, 5.0, 60.0, 250.0, 0.5], "float64"),
                                    const([0.01, 0.4, 0.5, 0.45, 0.55, 0.999], "float64"))
    yield "math.betainc/edges", call("math.betainc", {"py": [1.0, 1.0, 2.0, -1.0, 2.0]},
                                     {"py": [1.0, 2.0, 2.0, 1.0, 2.0]}, {"py": [0.0, 1.0, 1.5, 0.5, float("nan")]})
    yield "math.betainc/scalar_x", call("math.betainc", t("float32", (2, 3), "pos"), t("float32", (2, 3), "pos", 1),
                                        {"py": 0.3})
    xs = {"py": [0.0, 1e-3, 0.5, -1.0, 4.0, -7.5, 14.9, 15.1, 30.0, -80.0, 600.0]}
    for fn in ("bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e"):
        for path in (f"math.{fn}", f"math.special.{fn}"):
            yield path, call(path, t("float32", (2, 3)))
        yield f"math.{fn}/float64", call(f"math.{fn}", const(xs["py"], "float64"))
        yield f"math.{fn}/grad", call(f"math.{fn}", t("float64", (2, 3)), grad=True)
        yield f"math.{fn}/grad_at_zero", call(f"math.{fn}", const([0.0, 2.0], "float64"), grad=True)
        yield f"math.{fn}/int", call(f"math.{fn}", t("int32"))


def _image():
    img = t("float32", (2, 4, 5, 3))
    for fn in ("image.resize_bicubic", "image.resize_area"):
        yield fn, call(fn, img, [7, 3])
        yield f"{fn}/align_corners", call(fn, img, [3, 8], align_corners=True)
        yield f"{fn}/int", call(fn, t("int32", (1, 5, 4, 1)), [2, 6])
        yield f"{fn}/float64", call(fn, t("float64", (1, 3, 3, 2)), [5, 5])
        yield f"{fn}/unknown_batch", call(fn, p("float32", (None, 4, 5, 3), (2, 4, 5, 3)), [6, 6])
        yield f"{fn}/same_size", call(fn, img, [4, 5])
        yield f"{fn}/rank3", call(fn, t("float32", (4, 5, 3)), [2, 2])
    yield "image.resize_bicubic/half_pixel", call("image.resize_bicubic", img, [9, 2], half_pixel_centers=True)
    yield "image.resize_bicubic/grad", call("image.resize_bicubic", t("float64", (1, 4, 3, 2)), [6, 5], grad=True)
    yield "image.resize_bicubic/half_pixel_grad", call("image.resize_bicubic", t("float64", (1, 3, 4, 1)), [2, 7],
                                                       half_pixel_centers=True, grad=True)
    yield "image.resize_area/grad", call("image.resize_area", t("float64", (1, 4, 3, 2)), [6, 5], grad=True)
    for method in (2, 3):
        yield f"image.resize_images/method{method}", call("image.resize_images", t("float32", (4, 6, 1)), [3, 9],
                                                          method=method)


def _sparse_embeddings():
    idx = [[0, 0], [0, 1], [2, 0], [2, 1], [2, 2]]
    ids = {"sparse": [idx, t("int64", (5,), "idx6"), [4, 3]]}
    weights = {"sparse": [idx, t("float64", (5,), "pos", 1), [4, 3]]}
    table = t("float64", (6, 2))
    for combiner in ("sum", "mean", "sqrtn"):
        # no gradients: TF's to the table is an IndexedSlices, ringflow's dense (test_sparse_embedding_ops.py)
        yield f"nn.embedding_lookup_sparse/{combiner}", call("nn.embedding_lookup_sparse", table, ids, None,
                                                             combiner=combiner)
        yield f"nn.embedding_lookup_sparse/weighted_{combiner}", call("nn.embedding_lookup_sparse", table, ids,
                                                                      weights, combiner=combiner)
        yield f"nn.safe_embedding_lookup_sparse/{combiner}", call("nn.safe_embedding_lookup_sparse", table, ids,
                                                                  weights, combiner=combiner)
    yield "nn.embedding_lookup_sparse/default", call("nn.embedding_lookup_sparse", t("float32", (6, 3)), ids, None)
    yield "nn.embedding_lookup_sparse/shards", call("nn.embedding_lookup_sparse",
                                                    {"list": [t("float32", (3, 2)), t("float32", (3, 2), salt=1)]},
                                                    ids, None, partition_strategy="div")
    yield "nn.embedding_lookup_sparse/bad_combiner", call("nn.embedding_lookup_sparse", table, ids, None,
                                                          combiner="max")
    negative = {"sparse": [idx, {"py": [1, -1, 3, 5, -2]}, [4, 3]]}
    yield "nn.safe_embedding_lookup_sparse/pruned", call("nn.safe_embedding_lookup_sparse", t("float32", (6, 2)),
                                                         negative)
    yield "nn.safe_embedding_lookup_sparse/default_id", call("nn.safe_embedding_lookup_sparse", t("float32", (6, 2)),
                                                             negative, default_id=4)
    deep = {"sparse": [[[0, 0, 0], [0, 1, 1], [1, 1, 0]], {"py": [2, 0, 5]}, [2, 2, 2]]}
    yield "nn.safe_embedding_lookup_sparse/rank3", call("nn.safe_embedding_lookup_sparse", t("float32", (6, 2)), deep)


def _ctc():
    labels = {"sparse": [[[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 0]], {"py": [1, 2, 0, 0, 2, 3]}, [3, 3]]}
    logits = t("float32", (6, 3, 5), salt=1)  # float32: TF's float64 CTC is itself 1e-9 from an exact sum
    lengths = {"py": [6, 5, 4]}
    yield "nn.ctc_loss", call("nn.ctc_loss", labels, logits, lengths, grad=True)
    yield "nn.ctc_loss/float64", call("nn.ctc_loss", labels, t("float64", (6, 3, 5), salt=1), lengths,
                                      values=False)
    yield "nn.ctc_loss/batch_major", call("nn.ctc_loss", labels, t("float32", (3, 6, 5), salt=2), lengths,
                                          time_major=False, grad=True)
    yield "nn.ctc_loss/no_merge", call("nn.ctc_loss", labels, logits, lengths, ctc_merge_repeated=False, grad=True)
    yield "nn.ctc_loss/collapse", call("nn.ctc_loss", labels, logits, lengths, preprocess_collapse_repeated=True)
    yield "nn.ctc_loss/too_short", call("nn.ctc_loss", labels, logits, {"py": [6, 2, 4]})
    yield "nn.ctc_loss/repeats_too_short", call("nn.ctc_loss", labels, logits, {"py": [6, 3, 4]})
    yield "nn.ctc_loss/ignore_longer", call("nn.ctc_loss", labels, logits, {"py": [6, 2, 4]},
                                            ignore_longer_outputs_than_inputs=True, grad=True)
    yield "nn.ctc_loss/dense_labels", call("nn.ctc_loss", t("int32", (3, 3)), logits, lengths)
    dense = const([[1, 2, 0], [3, 3, 4], [2, 0, 0]], "int32")
    yield "nn.ctc_loss_v2/dense", call("nn.ctc_loss_v2", dense, logits, {"py": [2, 3, 1]}, {"py": [6, 6, 4]},
                                       grad=True)
    yield "nn.ctc_loss_v2/dense_blank_last", call("nn.ctc_loss_v2", const([[1, 2, 0], [3, 3, 1], [2, 0, 0]], "int32"),
                                                  logits, {"py": [2, 3, 1]},
                                                  {"py": [6, 6, 4]}, blank_index=-1)
    yield "nn.ctc_loss_v2/sparse", call("nn.ctc_loss_v2", labels, logits, None, lengths, blank_index=2, grad=True)
    yield "nn.ctc_loss_v2/sparse_no_blank", call("nn.ctc_loss_v2", labels, logits, None, lengths)
    yield "nn.ctc_loss_v2/batch_major", call("nn.ctc_loss_v2", dense, t("float32", (3, 6, 5)), {"py": [2, 3, 1]},
                                             {"py": [6, 6, 4]}, logits_time_major=False)
    decode = t("float32", (5, 3, 4), salt=3)
    yield "nn.ctc_greedy_decoder", call("nn.ctc_greedy_decoder", decode, {"py": [5, 4, 2]})
    yield "nn.ctc_greedy_decoder/no_merge", call("nn.ctc_greedy_decoder", decode, {"py": [5, 4, 2]},
                                                 merge_repeated=False)
    yield "nn.ctc_greedy_decoder/ties", call("nn.ctc_greedy_decoder", t("float64", (6, 2, 3), "idx2"), {"py": [6, 3]})
    yield "nn.ctc_greedy_decoder/blank_index", call("nn.ctc_greedy_decoder", decode, {"py": [5, 4, 2]},
                                                    blank_index=1)
    yield "nn.ctc_greedy_decoder/int", call("nn.ctc_greedy_decoder", t("int32", (5, 3, 4)), {"py": [5, 4, 2]})
    rows = const([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0], [5, 6, 6, 5, 5]], "int32")
    yield "nn.collapse_repeated", call("nn.collapse_repeated", rows, {"py": [5, 3, 4]})
    yield "nn.collapse_repeated/int64", call("nn.collapse_repeated", const([[2, 2], [3, 1]], "int64"),
                                             const([2, 1], "int64"))


def _operators():
    ops = {"FullMatrix": ([t("float64", (3, 3), "diag")], {}),
           "FullMatrix/batch": ([t("float32", (2, 3, 3), "diag")], {}),
           "Diag": ([t("float64", (3,), "pos")], {}),
           "Diag/batch": ([t("float32", (2, 3), "pos")], {}),
           "LowerTriangular": ([t("float64", (3, 3), "diag")], {}),
           "ScaledIdentity": ([3, t("float64", (), "pos")], {}),
           "ScaledIdentity/batch": ([3, t("float32", (2,), "pos")], {}),
           "Identity": ([3], {"dtype": {"dtype": "float64"}}),
           "Identity/batch": ([3], {"batch_shape": [2]})}
    for label, (args, kwargs) in ops.items():
        fn = "linalg.LinearOperator" + label.split("/")[0]
        dtype = "float32" if label.endswith("/batch") or label == "Identity/batch" else "float64"
        rhs = t(dtype, (3, 2), salt=3)
        for name, rest, grad in (("to_dense", [], True), ("matmul", [rhs], True), ("solve", [rhs], True),
                                 ("matvec", [t(dtype, (3,), salt=4)], False), ("determinant", [], True),
                                 ("log_abs_determinant", [], True), ("diag_part", [], False), ("trace", [], False),
                                 ("add_to_tensor", [t(dtype, (3, 3), salt=5)], False),
                                 ("solvevec", [t(dtype, (3,), salt=4)], False)):
            case = dict(call(fn, *args, grad=grad and dtype == "float64", **kwargs), method=[name, *rest])
            yield f"{fn}/{label.partition('/')[2] or 'one'}/{name}", case
        yield f"{fn}/{label.partition('/')[2] or 'one'}/adjoint_matmul", dict(call(fn, *args, **kwargs),
                                                                               method=["matmul", rhs, True])
    yield "linalg.LinearOperatorDiag/int", call("linalg.LinearOperatorDiag", t("int32", (3,)))
    yield "linalg.LinearOperatorDiag/scalar", call("linalg.LinearOperatorDiag", t("float32", ()))
    yield "linalg.LinearOperatorFullMatrix/int", call("linalg.LinearOperatorFullMatrix", t("int32", (2, 2)))
    yield "linalg.LinearOperatorFullMatrix/rect_solve", dict(
        call("linalg.LinearOperatorFullMatrix", t("float32", (2, 3)), is_square=False),
        method=["solve", t("float32", (2, 1))])
    yield "linalg.LinearOperatorFullMatrix/rect_matmul", dict(
        call("linalg.LinearOperatorFullMatrix", t("float32", (2, 3))), method=["matmul", t("float32", (3, 2))])
    yield "linalg.LinearOperatorFullMatrix/shape_tensor", dict(
        call("linalg.LinearOperatorFullMatrix", p("float32", (None, 3, 3), (2, 3, 3))), method=["shape_tensor"])


def _b64(data):
    return {"b64": base64.b64encode(data).decode()}


def _unicode():
    words = {"s": [["héllo", "wörld"], ["😀 ok", ""]]}
    bad = {"list": [_b64(b"a\xffb"), _b64(b"ok"), _b64(b"\xc3")]}
    for out in ("UTF-8", "UTF-16-BE", "UTF-32-BE"):
        yield f"strings.unicode_transcode/{out}", call("strings.unicode_transcode", words, "UTF-8", out)
    yield "strings.unicode_transcode/from_utf16", call("strings.unicode_transcode",
                                                       {"list": [_b64("hé😀".encode("utf-16-be"))]}, "UTF-16-BE",
                                                       "UTF-8")
    yield "strings.unicode_transcode/latin1", call("strings.unicode_transcode", {"list": [_b64(b"caf\xe9")]},
                                                   "ISO-8859-1", "UTF-8")
    for errors in ("replace", "ignore", "strict"):
        yield f"strings.unicode_transcode/{errors}", call("strings.unicode_transcode", bad, "UTF-8", "UTF-8",
                                                          errors=errors)
    yield "strings.unicode_transcode/replacement_char", call("strings.unicode_transcode", bad, "UTF-8", "UTF-16-BE",
                                                             replacement_char=63)
    yield "strings.unicode_transcode/control", call("strings.unicode_transcode", {"s": ["a\tb\x01c"]}, "UTF-8",
                                                    "UTF-8", replace_control_characters=True)
    yield "strings.unicode_transcode/bad_encoding", call("strings.unicode_transcode", words, "UTF-8", "UTF-7")
    yield "strings.unicode_transcode/int", call("strings.unicode_transcode", t("int32"), "UTF-8", "UTF-8")
    codes = const([[104, 233, 108], [128512, 32, 111]], "int32")
    for out in ("UTF-8", "UTF-16-BE", "UTF-32-BE"):
        yield f"strings.unicode_encode/{out}", call("strings.unicode_encode", codes, out)
    yield "strings.unicode_encode/rank3", call("strings.unicode_encode", const([[[72, 105]], [[33, 33]]], "int32"),
                                               "UTF-8")
    invalid = const([[72, -1, 0x110000, 0xD800, 105]], "int32")
    for errors in ("replace", "ignore", "strict"):
        yield f"strings.unicode_encode/{errors}", call("strings.unicode_encode", invalid, "UTF-8", errors=errors)
    yield "strings.unicode_encode/replacement_char", call("strings.unicode_encode", invalid, "UTF-8",
                                                          replacement_char=42)
    yield "strings.unicode_encode/int64", call("strings.unicode_encode", const([[72]], "int64"), "UTF-8")


def _sparse_merge():
    idx = [[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]]
    ids = {"sparse": [idx, {"py": [4, 1, 0, 2, 2]}, [3, 2]]}
    values = {"sparse": [idx, t("float32", (5,)), [3, 2]]}
    for fn in ("sparse.merge", "sparse_merge"):
        yield fn, call(fn, ids, values, 5)
    yield "sparse.merge/sorted", call("sparse.merge", ids, values, 5, already_sorted=True)
    yield "sparse.merge/int64", call("sparse.merge", {"sparse": [idx, t("int64", (5,), "idx3"), [3, 2]]}, values, 3)
    yield "sparse.merge/two", call("sparse.merge", {"list": [ids, {"sparse": [idx, {"py": [1, 0, 1, 1, 0]}, [3, 2]]}]},
                                   values, [5, 2])
    yield "sparse.merge/float_ids", call("sparse.merge", {"sparse": [idx, t("float32", (5,), "pos"), [3, 2]]},
                                         values, 5)


def cases():
    found = {}
    found.update((f"num2/{name}", case) for name, case in _sparse_merge())
    found.update((f"num2/{name}", case) for name, case in _unicode())
    found.update((f"num2/{name}", case) for name, case in _operators())
    found.update((f"num2/{name}", case) for name, case in _ctc())
    found.update((f"num2/{name}", case) for name, case in _sparse_embeddings())
    found.update((f"num2/{name}", case) for name, case in _image())
    found.update((f"num2/{name}", case) for name, case in _special())
    found.update((f"num2/{name}", case) for name, case in _nn())
    found.update((f"num2/{name}", case) for name, case in _checked_aliases())
    found.update((f"num2/{L}{name}" if not name.startswith("matrix_") else f"num2/{name}", case)
                 for name, case in _linalg())
    for group in (_scalar_families, _other_families, _kl):
        found.update((f"num2/{D}{name}", case) for name, case in group())
    found.update((f"num2/{name}", case) for name, case in _quantization())
    return found
