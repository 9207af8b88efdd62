"""Where ringflow differs from TensorFlow today: {reason: case ids}, one reason per kind of difference.

Each case listed is an xfail with its reason, strict: a fix in ringflow fails the suite until the case leaves this
table. The failing case's message shows the exact difference.
"""
KNOWN = {
    ("a numpy scalar operand with dtypes TF refuses: TF's operator then returns NotImplemented, numpy "
     "tries Tensor.__array__, which raises NotImplementedError; ringflow raises the TypeError that says "
     "why"): [
        "op/%/bool/np_float32", "op/%/bool/np_float64", "op/%/bool/np_int32", "op/%/bool/np_int64",
        "op/&/float32/np_float32", "op/&/float32/np_float64", "op/&/float32/np_int32", "op/&/float32/np_int64",
        "op/&/float64/np_float32", "op/&/float64/np_float64", "op/&/float64/np_int32", "op/&/float64/np_int64",
        "op/**/bool/np_float32", "op/**/bool/np_float64", "op/**/bool/np_int32", "op/**/bool/np_int64",
        "op/*/bool/np_float32", "op/*/bool/np_float64", "op/*/bool/np_int32", "op/*/bool/np_int64",
        "op/+/bool/np_float32", "op/+/bool/np_float64", "op/+/bool/np_int32", "op/+/bool/np_int64",
        "op/-/bool/np_float32", "op/-/bool/np_float64", "op/-/bool/np_int32", "op/-/bool/np_int64",
        "op////bool/np_float32", "op////bool/np_float64", "op////bool/np_int32", "op////bool/np_int64",
        "op///bool/np_float32", "op///bool/np_float64", "op///bool/np_int32", "op///bool/np_int64",
        "op/^/float32/np_float32", "op/^/float32/np_float64", "op/^/float32/np_int32", "op/^/float32/np_int64",
        "op/^/float64/np_float32", "op/^/float64/np_float64", "op/^/float64/np_int32", "op/^/float64/np_int64",
        "op/|/float32/np_float32", "op/|/float32/np_float64", "op/|/float32/np_int32", "op/|/float32/np_int64",
        "op/|/float64/np_float32", "op/|/float64/np_float64", "op/|/float64/np_int32", "op/|/float64/np_int64",
    ],
    ("the recorder's TF 2.15 gives & | ^ ~ a bitwise meaning on integer tensors; TF 1.15, which ringflow "
     "follows, has only the logical ones and refuses integers"): [
        "op/&/int32/np_float32", "op/&/int32/np_float64", "op/&/int32/np_int32", "op/&/int32/np_int64",
        "op/&/int32/py_bool", "op/&/int32/py_int", "op/&/int32/tensor", "op/&/np_float32/int32",
        "op/&/np_float64/int32", "op/&/np_int32/int32", "op/&/np_int64/int32", "op/&/py_bool/int32",
        "op/&/py_int/int32", "op/^/int32/np_float32", "op/^/int32/np_float64", "op/^/int32/np_int32",
        "op/^/int32/np_int64", "op/^/int32/py_bool", "op/^/int32/py_int", "op/^/int32/tensor",
        "op/^/np_float32/int32", "op/^/np_float64/int32", "op/^/np_int32/int32", "op/^/np_int64/int32",
        "op/^/py_bool/int32", "op/^/py_int/int32", "op/invert/int32", "op/|/int32/np_float32",
        "op/|/int32/np_float64", "op/|/int32/np_int32", "op/|/int32/np_int64", "op/|/int32/py_bool",
        "op/|/int32/py_int", "op/|/int32/tensor", "op/|/np_float32/int32", "op/|/np_float64/int32",
        "op/|/np_int32/int32", "op/|/np_int64/int32", "op/|/py_bool/int32", "op/|/py_int/int32",
    ],
    ("TF's `|` with a Python float on either side raises AttributeError ('float' object has no attribute "
     "'__ror__'); ringflow raises TypeError or builds logical_or"): [
        "op/|/bool/py_float", "op/|/float32/py_float", "op/|/float64/py_float", "op/|/int32/py_float",
    ],
    ("error class: TF's tf.div converts the second operand to the first's dtype and raises ValueError; "
     "ringflow raises TypeError (not a ValueError)"): [
        "binary/div/mixed_float32_float64", "binary/div/mixed_float32_int32", "binary/div/mixed_int32_int64",
    ],
    ("dtype rule: TF's RealDiv and Reciprocal build on integers and fail at Session.run (no integer "
     "kernel); ringflow refuses at construction or computes"): [
        "binary/realdiv/int32", "binary/realdiv/int64", "unary/reciprocal/int32", "unary/reciprocal/int64",
    ],
    ("TF's gradient of gather and embedding_lookup is an IndexedSlices (fetched as IndexedSlicesValue); "
     "ringflow's is a dense Tensor"): [
        "grad_ys/gather", "grad_ys/nn.embedding_lookup", "row/gather", "row/nn.embedding_lookup",
    ],
    ("TF's nn.swish is a custom-gradient function whose output op is IdentityN; ringflow builds x * "
     "sigmoid(x)"): [
        "names/nn.swish",
    ],
    ("tg.cond takes a Python bool pred and calls the chosen function, as TF's smart_cond does (ringflow's "
     "own programs rely on it); TF's tf.cond raises TypeError"): [
        "row/cond",
    ],
    ("image.rot90's static shape: TF leaves height and width unknown ([None, None, 1]); ringflow's is the "
     "exact [3, 2, 1]"): [
        "row/image.rot90",
    ],
    # the errors family (cases_errors.py)
    ("TF 2.15's CPU Cholesky fills a matrix that is not positive definite with NaNs; TF 1.15, which ringflow "
     "follows, raises InvalidArgumentError (\"Cholesky decomposition was not successful\")"): [
        "errors/cholesky/singular",
    ],
    # the math family (cases_math.py)
    ("TF's gradient of gather_nd with one index per row is an IndexedSlices (fetched as IndexedSlicesValue); "
     "ringflow's is a dense Tensor"): [
        "math/gather_nd/slices",
    ],
    ("TF's clip_by_average_norm divides a float32 constant 1.0 by clip_norm and so refuses float64 tensors "
     "(TypeError); ringflow clips them in their own dtype"): [
        "math/clip_by_average_norm/large",
    ],
    ("TF's rfft gradient adds terms of the input's length to terms of fft_length's and fails (ValueError) when the "
     "two differ; ringflow's crops or pads the gradient back to the input"): [
        "math/signal.rfft/length",
    ],
    ("a float64 image is adjusted in float32, as TF does, but ringflow's float32 arithmetic rounds differently "
     "from TF's kernels (about 1e-7), beyond the float64 tolerance"): [
        "math/image.adjust_gamma/float64", "math/image.adjust_hue/negative", "math/image.adjust_saturation/half",
    ],
    ("TF 2.15's CPU build has no ApproxTopK kernel for the minimum (is_max_k=False), so its approx_min_k fails at "
     "Session.run; ringflow computes it"): [
        "math/nn.approx_min_k",
    ],
    # the strings family (cases_strings.py)
    ("TF's gradient for SparseSparseMaximum is registered with the wrong signature and fails with TypeError; "
     "ringflow registers none and raises NotImplementedError naming the op"): [
        "strings/sparse/sparse.maximum/grad",
    ],
    # the platform family (cases_plat.py)
    ("TF's cosine schedules multiply a float32 constant pi (and draw float32 noise) into a float64 learning rate's "
     "schedule and fail (TypeError, ValueError); ringflow computes every schedule in the learning rate's dtype"): [
        "plat/train.cosine_decay_restarts/float64", "plat/train.linear_cosine_decay/float64",
        "plat/train.noisy_linear_cosine_decay/float64",
    ],
    ("ringflow's file API reads local paths only, so it registers the schemes '' and 'file'; TF also has 'ram' "
     "and 'gs'"): [
        "plat/io.gfile.get_registered_schemes",
    ],
    ("TF's JSON-to-binary converter writes an Example's repeated numbers unpacked; ringflow's messages pack them, as "
     "proto3 (and TF's own Example.SerializeToString) does: the bytes differ, the parsed Examples are equal"): [
        "plat/io.decode_json_example", "plat/io.decode_json_example/two_features",
    ],
    # the num2 family (cases_num2.py)
    ("an op without a gradient: TF's tf.gradients raises LookupError, ringflow NotImplementedError naming the op "
     "(STYLE: the error for a missing gradient rule)"): [
        "num2/image.resize_area/grad",
    ],
    # the fc2 family (cases_fc2.py)
    ("a sequence length's static shape: TF's segment ops leave the batch unknown ([None]), ringflow's dense ops keep "
     "it ([3]); the lengths are equal"): [
        "fc2/sequence/identity_lengths", "fc2/sequence/numeric_shape2_lengths",
    ],
    ("an embedding of crossed ids' static shape: TF's sparse embedding lookup leaves the batch unknown ([None, 2]), "
     "ringflow's dense one keeps it ([3, 2]); the values are equal"): [
        "fc2/crossed/vocabulary_list_embedding",
    ],
    # the hyper32 family (cases_hyper32.py)
    ("TF's ProximalAdagrad and ProximalGradientDescent hand their hyper-parameters to the kernel uncast, so Python "
     "floats (float32) on a float64 variable fail to build there (TypeError); ringflow casts them as every other "
     "optimizer does and steps by float32's nearest values (numpy float64s match TF to the bit)"): [
        "hyper32/train.proximal_adagrad/float64", "hyper32/train.proximal_gradient_descent/float64",
    ],
}


def reason(name):
    return next((why for why, names in KNOWN.items() if name in names), None)


def listed():
    return [name for names in KNOWN.values() for name in names]
