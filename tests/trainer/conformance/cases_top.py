"""The top-level tf names and tf.dtypes, tf.initializers and tf.random, checked against real TensorFlow: values over
dtypes, static shapes with unknown and zero-size dims, gradients, TF's errors for bad input, and the stateless random
ops bit for bit. Recorded into fixtures/tf_oracle_top.json (record_tf_oracle.py --family top)."""
from .cases import call, fn, init, p, t, var

SEEDS = {"small": [1, 2], "negative": [-7, 3], "large": [2 ** 31 - 1, 123456789]}
SHAPES = {"scalar": [], "odd": [7], "matrix": [3, 5], "empty": [0, 2]}
INITIALIZERS = {"glorot_normal": {}, "glorot_uniform": {}, "he_normal": {}, "he_uniform": {}, "lecun_normal": {},
                "lecun_uniform": {}, "random_normal": {"mean": 0.5}, "random_uniform": {"minval": -2.0},
                "truncated_normal": {"stddev": 3.0}, "uniform_unit_scaling": {"factor": 1.5},
                "variance_scaling": {"scale": 2.0, "mode": "fan_avg", "distribution": "uniform"}}


def exact(case, graph_seed=None):
    return dict(case, exact=True, graph_seed=graph_seed)


def made(fn_name, *args, method=(), **kwargs):
    """A case that calls `fn_name` and then calls what it returns (an initializer, a template) with `method`."""
    return dict(call(fn_name, *args, **kwargs), method=["__call__", *method])


def _initializers():
    for name, kwargs in INITIALIZERS.items():
        for label, shape in (("matrix", [3, 5]), ("kernel", [2, 2, 3, 4])):
            yield f"top/initializers.{name}/{label}", exact(made(f"initializers.{name}", seed=3, **kwargs,
                                                                 method=[shape]), graph_seed=11)
    yield "top/initializers.orthogonal", dict(made("initializers.orthogonal", seed=3, method=[[4, 3]]),
                                              graph_seed=11)
    yield "top/initializers.constant", made("initializers.constant", 2.5, method=[[2, 3]])
    yield "top/initializers.identity", made("initializers.identity", 2.0, method=[[3, 3]])
    yield "top/initializers.identity/not_2d", made("initializers.identity", method=[[3]])
    yield "top/initializers.ones", made("initializers.ones", method=[[2]])
    yield "top/initializers.zeros", made("initializers.zeros", method=[[0, 3]])
    yield "top/initializers.variables", call("initializers.variables", {"list": [var(t()), var(t("int32"))]})
    yield "top/initializers.global_variables", call("initializers.global_variables")
    yield "top/initializers.local_variables", call("initializers.local_variables")
    yield "top/initializers.tables_initializer", call("initializers.tables_initializer")
    yield "top/initialize_variables", call("initialize_variables", {"list": [var(t())]})
    yield "top/get_local_variable", call("get_local_variable", "w", [2, 3], initializer=init("ones"))
    yield "top/get_local_variable/scoped", call("get_local_variable", "v", [1], initializer=init("zeros"),
                                                scope=["vs:outer"])


def _stateless():
    for seed_name, seed in SEEDS.items():
        for shape_name, shape in SHAPES.items():
            for dtype in ("float32", "float64"):
                for fn_name in ("stateless_uniform", "stateless_normal", "stateless_truncated_normal"):
                    yield f"top/random.{fn_name}/{seed_name}/{shape_name}/{dtype}", exact(call(
                        f"random.{fn_name}", shape, seed, dtype={"dtype": dtype}))
        for dtype, low, high in (("int32", -3, 11), ("int64", -(2 ** 40), 3 ** 30)):
            yield f"top/random.stateless_uniform/int/{seed_name}/{dtype}", exact(call(
                "random.stateless_uniform", [9], seed, low, high, dtype={"dtype": dtype}))
            yield f"top/random.stateless_uniform/full_int/{seed_name}/{dtype}", exact(call(
                "random.stateless_uniform", [5], seed, None, None, dtype={"dtype": dtype}))
    yield "top/random.stateless_uniform/int64_seed", exact(call("random.stateless_uniform", [4], t("int64", (2,))))
    yield "top/random.stateless_uniform/fed_seed", exact(call("random.stateless_uniform", [3],
                                                              p("int32", (2,), (2,), salt=4)))
    yield "top/random.stateless_normal/shape_tensor", exact(call("random.stateless_normal",
                                                                 {"make": "shape", "args": [p()], "kwargs": {}},
                                                                 [4, 4]))
    yield "top/random.stateless_normal/mean_stddev", call("random.stateless_normal", [2, 3], [1, 2],
                                                          t("float64", (3,)), t("float64", (2, 3), "pos", 1),
                                                          dtype={"dtype": "float64"}, grad=True)
    yield "top/random.stateless_uniform/bounds", call("random.stateless_uniform", [3], [5, 6],
                                                      t("float64", (), salt=1), t("float64", (), "pos", 2),
                                                      dtype={"dtype": "float64"}, grad=True)
    yield "top/random.stateless_truncated_normal/large", exact(call("random.stateless_truncated_normal", [1001],
                                                                    [9, 9]))
    yield "top/random.stateless_categorical", exact(call("random.stateless_categorical", t("float32", (3, 4)), 6,
                                                         [4, 2]))
    yield "top/random.stateless_categorical/int32", exact(call("random.stateless_categorical",
                                                               t("float64", (2, 5)), 3, [1, 1],
                                                               dtype={"dtype": "int32"}))
    yield "top/random.stateless_multinomial", exact(call("random.stateless_multinomial", t("float32", (2, 3)), 4,
                                                         [8, 0]))
    yield "top/random.stateless_normal/philox", exact(call("random.stateless_normal", [5], [3, 1], alg="philox"))
    yield "top/random.stateless_uniform/bad_alg", call("random.stateless_uniform", [5], [3, 1], alg="mersenne")
    yield "top/random.create_rng_state/int", call("random.create_rng_state", 5, "philox")
    yield "top/random.create_rng_state/big_int", call("random.create_rng_state", 2 ** 64 + 3, "threefry")
    yield "top/random.create_rng_state/short_vector", call("random.create_rng_state", {"py": [1, 2 ** 64 - 1]}, 1)
    yield "top/random.create_rng_state/long_vector", call("random.create_rng_state", {"py": [4, 5, 6, 7]}, "philox")
    yield "top/random.create_rng_state/tensor", call("random.create_rng_state", t("int32", (2,)), "philox")
    yield "top/random.experimental.stateless_shuffle", exact(call("random.experimental.stateless_shuffle",
                                                                  t("float64", (9, 2)), [1, 2]))
    yield "top/random.experimental.stateless_shuffle/vector", exact(call("random.experimental.stateless_shuffle",
                                                                         t("int32", (10,)), t("int64", (2,))))
    yield "top/random.experimental.stateless_shuffle/one_row", exact(call("random.experimental.stateless_shuffle",
                                                                          t("int32", (1, 3)), [4, 4]))
    yield "top/random.split", exact(call("random.split", [1, 2], 3))
    yield "top/random.split/int64", exact(call("random.split", t("int64", (2,))))
    yield "top/random.fold_in", exact(call("random.fold_in", [3, 4], 7))
    yield "top/random.stateless_uniform/bad_seed_shape", call("random.stateless_uniform", [2], [1, 2, 3])
    yield "top/random.stateless_uniform/int_without_maxval", call("random.stateless_uniform", [2], [1, 2],
                                                                  dtype={"dtype": "int32"})
    yield "top/random.stateless_normal/int_dtype", call("random.stateless_normal", [2], [1, 2],
                                                        dtype={"dtype": "int32"})
    yield "top/random.stateless_uniform/equal_bounds", call("random.stateless_uniform", [2], [1, 2], 3, 3,
                                                            dtype={"dtype": "int32"})


def _parameterized_random():
    # gamma and Poisson: TF's shapes and dtypes (numpy's draws, so values are compared by tests/ on their moments)
    yield "top/random_gamma", call("random_gamma", [3], t("float32", (2,), "pos"), seed=1, values=False)
    yield "top/random_gamma/beta", call("random_gamma", [2], 2.0, t("float64", (3,), "pos"),
                                        dtype={"dtype": "float64"}, seed=1, values=False, grad=True)
    yield "top/random_gamma/broadcast", call("random_gamma", [4], t("float32", (2, 1), "pos"),
                                             t("float32", (3,), "pos", 1), seed=2, values=False)
    yield "top/random_gamma/unknown", call("random_gamma", [2], p("float32", (None,), (3,), "pos"), values=False)
    yield "top/random_gamma/int", call("random_gamma", [2], 1.0, dtype={"dtype": "int32"})
    yield "top/random.gamma", call("random.gamma", [5, 0], 1.5, seed=4, values=False)
    yield "top/random_poisson", call("random_poisson", t("float32", (2,), "pos"), [3], seed=1, values=False)
    yield "top/random_poisson/int64", call("random_poisson", [1.0, 4.0], [2, 2], {"dtype": "int64"}, seed=1,
                                           values=False)
    yield "top/random.poisson", call("random.poisson", 3.0, [0], values=False)
    yield "top/random.stateless_gamma", call("random.stateless_gamma", [4, 2], [1, 2], t("float32", (2,), "pos"),
                                             values=False)
    yield "top/random.stateless_gamma/beta", call("random.stateless_gamma", [3], [1, 2], 2.0,
                                                  t("float64", (3,), "pos"), dtype={"dtype": "float64"},
                                                  values=False, grad=True)
    yield "top/random.stateless_poisson", call("random.stateless_poisson", [2, 3], [5, 6], t("float32", (3,), "pos"),
                                               values=False)
    yield "top/random.stateless_poisson/float", call("random.stateless_poisson", [5], [5, 6], 2.0,
                                                     dtype={"dtype": "float32"}, values=False)
    yield "top/random.stateless_binomial", call("random.stateless_binomial", [2, 2], [7, 8], [5.0, 10.0], 0.25,
                                                values=False)
    yield "top/random.stateless_binomial/int64", call("random.stateless_binomial", [3], [7, 8], 4.0,
                                                      t("float64", (3,), "prob"), output_dtype={"dtype": "int64"},
                                                      values=False)


def _arrays():
    yield "top/bitcast/narrower", call("bitcast", t("float32", (2, 3)), {"dtype": "uint8"})
    yield "top/bitcast/wider", call("bitcast", t("int32", (3, 2)), {"dtype": "int64"})
    yield "top/bitcast/same", call("bitcast", t("float64", (3,)), {"dtype": "int64"})
    yield "top/bitcast/unknown", call("bitcast", p("int16", (None, 2), (3, 2)), {"dtype": "float32"})
    yield "top/bitcast/bad_last_dim", call("bitcast", t("int8", (2, 3)), {"dtype": "int16"})
    yield "top/bitcast/bool", call("bitcast", t("bool", (2,)), {"dtype": "int8"})
    for fn_name in ("to_complex64", "to_complex128"):
        yield f"top/{fn_name}", call(fn_name, t("float32"))
        yield f"top/{fn_name}/int", call(fn_name, t("int32", (3,)))
    yield "top/batch_gather", call("batch_gather", t("float64", (2, 3, 2)), {"py": [[2, 0], [1, 1]]}, grad=True)
    yield "top/batch_gather/vector", call("batch_gather", t("float32", (4,)), {"py": [3, 0]})
    yield "top/batch_gather/unknown_batch", call("batch_gather", p("float32", (None, 3), (2, 3)),
                                                 p("int64", (None, 1), (2, 1), "idx3"))
    yield "top/guarantee_const", call("guarantee_const", t())
    yield "top/sparse_matmul", call("sparse_matmul", t(), t("float32", (2, 3), salt=1), transpose_b=True,
                                    a_is_sparse=True, grad=True)
    yield "top/sparse_matmul/float64", call("sparse_matmul", t("float64"), t("float64", (3, 2)))
    yield "top/required_space_to_batch_paddings", call("required_space_to_batch_paddings", [5, 7], [2, 3],
                                                       [[1, 0], [0, 2]])
    yield "top/required_space_to_batch_paddings/fed", call("required_space_to_batch_paddings",
                                                           p("int32", (2,), (2,), "pos"), [4, 3])
    yield "top/required_space_to_batch_paddings/no_block", call("required_space_to_batch_paddings", [], [])
    slices = {"make": "IndexedSlices", "args": [t("float32", (2, 3)), {"py": [2, 0]}, {"py": [4, 3]}], "kwargs": {}}
    yield "top/IndexedSlices", call("IndexedSlices", t("float32", (2, 3)), {"py": [2, 2]}, {"py": [4, 3]})
    yield "top/IndexedSlices/to_dense", call("convert_to_tensor", slices)
    yield "top/IndexedSlices/in_an_op", call("add", slices, 1.0)
    yield "top/IndexedSlices/no_dense_shape", call("convert_to_tensor", {"make": "IndexedSlices", "args": [
        t("float32", (1, 3)), {"py": [1]}], "kwargs": {}})
    yield "top/convert_to_tensor_or_indexed_slices", call("convert_to_tensor_or_indexed_slices", {"py": [1, 2]})
    yield "top/convert_to_tensor_or_indexed_slices/dtype", call("convert_to_tensor_or_indexed_slices",
                                                                {"py": [1, 2]}, {"dtype": "float64"})
    yield "top/get_static_value", call("get_static_value", t())
    yield "top/fingerprint", call("fingerprint", t("int32", (3, 2)))
    yield "top/fingerprint/float_rows", call("fingerprint", t("float64", (2, 2, 3)))
    yield "top/fingerprint/strings", call("fingerprint", {"s": ["ab", "", "a longer string than sixteen bytes"]})
    yield "top/fingerprint/string_rows", call("fingerprint", {"s": [["ab", "c"], ["d", ""]]})
    yield "top/fingerprint/empty", call("fingerprint", t("float32", (0, 3)))
    yield "top/fingerprint/scalar", call("fingerprint", t("int32", ()))
    yield "top/fingerprint/bad_method", call("fingerprint", t("int32", (2,)), "md5")
    yield "top/user_ops.my_fact", call("user_ops.my_fact")
    for fn_name in ("tensor_scatter_nd_max", "tensor_scatter_nd_min"):
        yield f"top/{fn_name}", call(fn_name, t("float64", (4, 2)), {"py": [[0], [2]]}, t("float64", (2, 2), salt=1),
                                     grad=True)
        yield f"top/{fn_name}/elements", call(fn_name, t("int32", (2, 3)), {"py": [[1, 1], [0, 2], [1, 1]]},
                                              t("int32", (3,), salt=2))
        yield f"top/{fn_name}/bad_updates", call(fn_name, t("float32", (4,)), {"py": [[1]]}, t("float32", (2,)))
    for fn_name in ("scatter_nd_update", "scatter_nd_add", "scatter_nd_sub"):
        yield f"top/{fn_name}", call(fn_name, var(t("float32", (4, 2))), {"py": [[0, 1], [2, 0], [0, 1]]},
                                     t("float32", (3,), salt=1))
        yield f"top/{fn_name}/slices", call(fn_name, var(t("int32", (4, 2))), {"py": [[1], [3]]},
                                            t("int32", (2, 2), salt=1))
        yield f"top/{fn_name}/bad_index", call(fn_name, var(t("float32", (3,))), {"py": [[5]]},
                                               t("float32", (1,)))


# a mono 16-bit file at 8 kHz with a LIST chunk before its five samples; the same with an odd-sized LIST chunk and
# RIFF's pad byte after it (TF's reader does not skip the pad, so it finds no data); an 8-bit file
MONO_WAV = "UklGRjoAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAATElTVAQAAABJTkZPZGF0YQoAAABkADj//38AgAcA"
PADDED_WAV = "UklGRjwAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAATElTVAUAAABJTkZPeABkYXRhCgAAAGQAOP//fwCABwA="
EIGHT_BIT_WAV = "UklGRicAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQMAAABhYmM="


def _audio():
    yield "top/audio.encode_wav", call("audio.encode_wav", t("float32", (4, 2), "unit"), 16000)
    yield "top/audio.encode_wav/clipped", call("audio.encode_wav", {"py": [[1.5], [-2.0], [0.49999]]}, 44100)
    yield "top/audio.encode_wav/rank", call("audio.encode_wav", t("float32", (4,)), 8000)
    yield "top/audio.decode_wav", call("audio.decode_wav", {"b64": MONO_WAV})
    yield "top/audio.decode_wav/desired", call("audio.decode_wav", {"b64": MONO_WAV}, desired_channels=2,
                                               desired_samples=7)
    yield "top/audio.decode_wav/fewer_samples", call("audio.decode_wav", {"b64": MONO_WAV}, desired_samples=2)
    yield "top/audio.decode_wav/padded_chunk", call("audio.decode_wav", {"b64": PADDED_WAV})
    yield "top/audio.decode_wav/eight_bit", call("audio.decode_wav", {"b64": EIGHT_BIT_WAV})
    yield "top/audio.decode_wav/not_wav", call("audio.decode_wav", {"s": "not a wav file at all"})


def _control():
    branches = {"list": [fn("constant", value=1.5), fn("constant", value=2.5), fn("constant", value=3.5)]}
    yield "top/switch_case", call("switch_case", p("int32", (), (), "idx3", salt=1), branches)
    yield "top/switch_case/out_of_range", call("switch_case", t("int32", (), "pos", 1), branches)
    yield "top/switch_case/default", call("switch_case", t("int32", ()), branches, default=fn("constant", value=0.0))
    yield "top/switch_case/python_index", call("switch_case", {"py": 1}, branches)
    yield "top/switch_case/int64_index", call("switch_case", t("int64", ()), branches)
    yield "top/make_template", made("make_template", "lin", fn("layers.dense", units=2,
                                                                  kernel_initializer=init("ones")), method=[t()])
    yield "top/timestamp", call("timestamp", values=False)
    yield "top/grad_pass_through", made("grad_pass_through", fn("round"), method=[t("float64")], grad=True)
    yield "top/batch_scatter_update", call("batch_scatter_update", var(t("float32", (2, 3, 2))),
                                           {"py": [[2, 0], [1, 1]]}, t("float32", (2, 2, 2), salt=1))
    yield "top/batch_scatter_update/vector", call("batch_scatter_update", var(t("int32", (4,))), {"py": [3, 1]},
                                                  t("int32", (2,), salt=1))


def cases():
    found = {}
    for part in (_initializers, _stateless, _parameterized_random, _arrays, _audio, _control):
        found.update(part())
    return found
