"""Seeded random values, compared with TensorFlow's bit for bit: every random op and initializer under a graph
seed, an op seed, both, and the (0, 0) pair, in several shapes (odd sizes too) and dtypes, each run twice in one
session so the second draw of a stateful op is TF's second draw too."""
from .cases import call, init, t

SEEDINGS = {"graph": dict(graph_seed=777), "op": dict(seed=5), "both": dict(graph_seed=1, seed=2),
            "zero": dict(graph_seed=0, seed=0)}
SHAPES = {"scalar": [], "odd": [7], "matrix": [3, 5]}


def seeded(fn, *args, graph_seed=None, runs=2, exact=True, **kwargs):
    return dict(call(fn, *args, **kwargs), graph_seed=graph_seed, runs=runs, exact=exact)


def _draws():
    for seeding, given in SEEDINGS.items():
        graph_seed = given.get("graph_seed")
        op = {"seed": given["seed"]} if "seed" in given else {}
        for shape_name, shape in SHAPES.items():
            for dtype in ("float32", "float64"):
                common = dict(graph_seed=graph_seed, dtype={"dtype": dtype}, **op)
                yield f"random/{seeding}/normal/{shape_name}/{dtype}", seeded("random_normal", shape, **common)
                yield f"random/{seeding}/truncated_normal/{shape_name}/{dtype}", seeded(
                    "truncated_normal", shape, **common)
                yield f"random/{seeding}/uniform/{shape_name}/{dtype}", seeded("random_uniform", shape, **common)
            for dtype, low, high in (("int32", -3, 11), ("int64", -(2 ** 40), 3 ** 30)):
                yield f"random/{seeding}/uniform_int/{shape_name}/{dtype}", seeded(
                    "random_uniform", shape, low, high, graph_seed=graph_seed, dtype={"dtype": dtype}, **op)


def _shifted():
    # mean, stddev and bounds applied in the draw's dtype, as TF's graph applies them
    yield "random/normal/mean_stddev", seeded("random_normal", [9], 3.5, 0.25, graph_seed=3)
    yield "random/truncated_normal/mean_stddev", seeded("truncated_normal", [9], -1.0, 7.0, graph_seed=3)
    yield "random/uniform/bounds", seeded("random_uniform", [9], -0.3, 2.7, graph_seed=3)
    yield "random/uniform/maxval_only", seeded("random_uniform", [9], 0, 0.7, graph_seed=3)
    yield "random/uniform/tensor_bounds", seeded("random_uniform", [5], t("float32", (), "any"),
                                                t("float32", (), "pos", 1), graph_seed=3)
    yield "random/normal/large", seeded("random_normal", [1001], graph_seed=9, runs=1)
    yield "random/truncated_normal/large", seeded("truncated_normal", [1001], graph_seed=9, runs=1)


def _ops():
    yield "random/shuffle/rows", seeded("random_shuffle", t("float32", (6, 2)), graph_seed=4)
    yield "random/shuffle/vector", seeded("random_shuffle", t("int32", (9,)), seed=8)
    yield "random/shuffle/one_row", seeded("random_shuffle", t("float32", (1, 3)), graph_seed=4)
    yield "random/multinomial", seeded("random.multinomial", t("float32", (3, 4)), 5, graph_seed=4)
    yield "random/categorical/int32", seeded("random.categorical", t("float64", (2, 6)), 3,
                                             dtype={"dtype": "int32"}, seed=6)
    yield "random/crop", seeded("random_crop", t("float32", (5, 6, 2)), [2, 3, 2], graph_seed=4)
    yield "random/dropout/keep_prob", seeded("nn.dropout", t("float32", (4, 5), "pos"), 0.6, graph_seed=4)
    yield "random/dropout/rate", seeded("nn.dropout", t("float64", (3, 7), "pos"), rate=0.3, seed=2)
    yield "random/dropout/noise_shape", seeded("nn.dropout", t("float32", (4, 5), "pos"), 0.5,
                                               noise_shape=[4, 1], graph_seed=4)


INITIALIZERS = {"glorot_uniform": [], "glorot_normal": [], "random_normal": [0.5, 2.0],
                "truncated_normal": [0.0, 0.3], "random_uniform": [-1.0, 3.0], "variance_scaling": [2.0, "fan_out"],
                "uniform_unit_scaling": [1.5], "orthogonal": []}


def _initializers():
    for name, args in INITIALIZERS.items():
        for shape_name, shape in (("matrix", [3, 5]), ("kernel", [2, 2, 3, 4])):
            # orthogonal: TF's normal draw, then a QR whose float32 roundings LAPACK and Eigen do not share
            yield f"random/initializer/{name}/{shape_name}", seeded(
                "get_variable", "w", shape, initializer=init(name, *args), graph_seed=11, runs=1,
                exact=name != "orthogonal")
    yield "random/initializer/op_seed", seeded("get_variable", "w", [4, 3], initializer=init(
        "glorot_uniform", 17), runs=1)


def cases():
    found = {}
    for part in (_draws, _shifted, _ops, _initializers):
        found.update(part())
    return found
