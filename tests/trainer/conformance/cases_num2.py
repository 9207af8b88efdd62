"""tf.distributions, tf.quantization and the rest of the numeric namespaces' names checked against real TensorFlow:
values, dtypes and static shapes, gradients, sample shapes (and seeded draws bit for bit), and TF's errors.
Recorded into fixtures/tf_oracle_num2.json (record_tf_oracle.py --family num2)."""
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
NO_CDF = {"Gamma", "Beta", "StudentT"}  # TF's CDFs there need igamma / betainc
UNDEFINED_MODE = {"Uniform"}


def method(fn, args, name, *rest, **kwargs):
    return dict(call(D + fn, *args, **kwargs), method=[name, *rest])


def _scalar_families():
    for fn, (params, x) in SCALAR.items():
        for stat in STATISTICS:
            yield f"{fn}/{stat}", method(fn, params, stat)
        for name in AT_VALUE:
            if fn in NO_CDF and "cdf" in name or fn in NO_CDF and "survival" in name:
                continue
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


def cases():
    found = {}
    for group in (_scalar_families, _other_families, _kl):
        found.update((f"num2/{D}{name}", case) for name, case in group())
    return found
