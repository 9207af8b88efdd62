"""Where ringflow differs from TensorFlow today: {reason: case ids}, one reason per kind of difference.

Each case listed is an xfail with its reason, strict: a fix in ringflow fails the suite until the case leaves this
table. The failing case's message shows the exact difference.
"""
KNOWN = {
    ("dtype rule: TF's op accepts fewer input dtypes (its OpDef's type list) and raises TypeError at "
     "construction; ringflow builds the op, and may fail only at Session.run"): [
        "binary/add/bool", "binary/atan2/bool", "binary/atan2/int32", "binary/atan2/int64", "binary/div/bool",
        "binary/div_no_nan/bool", "binary/divide/bool", "binary/floor_div/bool", "binary/floordiv/bool",
        "binary/floormod/bool", "binary/greater/bool", "binary/greater_equal/bool", "binary/less/bool",
        "binary/less_equal/bool", "binary/math.divide_no_nan/bool", "binary/maximum/bool", "binary/minimum/bool",
        "binary/mod/bool", "binary/multiply/bool", "binary/pow/bool", "binary/squared_difference/bool",
        "binary/subtract/bool", "binary/truediv/bool", "binary/truncatemod/bool", "op/%/bool/py_bool",
        "op/%/bool/py_float", "op/%/bool/py_int", "op/%/bool/tensor", "op/%/np_float32/bool", "op/%/np_float64/bool",
        "op/%/np_int32/bool", "op/%/np_int64/bool", "op/%/py_bool/bool", "op/**/bool/py_bool", "op/**/bool/py_float",
        "op/**/bool/py_int", "op/**/bool/tensor", "op/**/np_float32/bool", "op/**/np_float64/bool",
        "op/**/np_int32/bool", "op/**/np_int64/bool", "op/**/py_bool/bool", "op/*/bool/py_bool",
        "op/*/bool/py_float", "op/*/bool/py_int", "op/*/bool/tensor", "op/*/np_float32/bool", "op/*/np_float64/bool",
        "op/*/np_int32/bool", "op/*/np_int64/bool", "op/*/py_bool/bool", "op/+/bool/py_bool", "op/+/bool/py_float",
        "op/+/bool/py_int", "op/+/bool/tensor", "op/+/np_float32/bool", "op/+/np_float64/bool", "op/+/np_int32/bool",
        "op/+/np_int64/bool", "op/+/py_bool/bool", "op/-/bool/py_bool", "op/-/bool/py_float", "op/-/bool/py_int",
        "op/-/bool/tensor", "op/-/np_float32/bool", "op/-/np_float64/bool", "op/-/np_int32/bool",
        "op/-/np_int64/bool", "op/-/py_bool/bool", "op////bool/py_bool", "op////bool/py_float", "op////bool/py_int",
        "op////bool/tensor", "op////np_float32/bool", "op////np_float64/bool", "op////np_int32/bool",
        "op////np_int64/bool", "op////py_bool/bool", "op///bool/py_bool", "op///bool/tensor", "op///np_float32/bool",
        "op///np_float64/bool", "op///np_int32/bool", "op///np_int64/bool", "op///py_bool/bool",
        "op/</bool/np_float32", "op/</bool/np_float64", "op/</bool/np_int32", "op/</bool/np_int64",
        "op/</bool/py_bool", "op/</bool/py_float", "op/</bool/py_int", "op/</bool/tensor", "op/</np_float32/bool",
        "op/</np_float64/bool", "op/</np_int32/bool", "op/</np_int64/bool", "op/</py_bool/bool",
        "op/</py_float/bool", "op/</py_int/bool", "op/<=/bool/np_float32", "op/<=/bool/np_float64",
        "op/<=/bool/np_int32", "op/<=/bool/np_int64", "op/<=/bool/py_bool", "op/<=/bool/py_float",
        "op/<=/bool/py_int", "op/<=/bool/tensor", "op/<=/np_float32/bool", "op/<=/np_float64/bool",
        "op/<=/np_int32/bool", "op/<=/np_int64/bool", "op/<=/py_bool/bool", "op/<=/py_float/bool",
        "op/<=/py_int/bool", "op/>/bool/np_float32", "op/>/bool/np_float64", "op/>/bool/np_int32",
        "op/>/bool/np_int64", "op/>/bool/py_bool", "op/>/bool/py_float", "op/>/bool/py_int", "op/>/bool/tensor",
        "op/>/np_float32/bool", "op/>/np_float64/bool", "op/>/np_int32/bool", "op/>/np_int64/bool",
        "op/>/py_bool/bool", "op/>/py_float/bool", "op/>/py_int/bool", "op/>=/bool/np_float32",
        "op/>=/bool/np_float64", "op/>=/bool/np_int32", "op/>=/bool/np_int64", "op/>=/bool/py_bool",
        "op/>=/bool/py_float", "op/>=/bool/py_int", "op/>=/bool/tensor", "op/>=/np_float32/bool",
        "op/>=/np_float64/bool", "op/>=/np_int32/bool", "op/>=/np_int64/bool", "op/>=/py_bool/bool",
        "op/>=/py_float/bool", "op/>=/py_int/bool", "op/@/bool/np_float32", "op/@/bool/np_float64",
        "op/@/bool/np_int32", "op/@/bool/np_int64", "op/@/bool/py_bool", "op/@/bool/py_float", "op/@/bool/py_int",
        "op/@/bool/tensor", "op/@/np_float32/bool", "op/@/np_float64/bool", "op/@/np_int32/bool",
        "op/@/np_int64/bool", "op/@/py_bool/bool", "op/abs/bool", "op/neg/bool", "reduce/cumprod/bool",
        "reduce/cumsum/bool", "reduce/reduce_logsumexp/bool", "reduce/reduce_logsumexp/int32",
        "reduce/reduce_logsumexp/int64", "reduce/reduce_max/bool", "reduce/reduce_mean/bool",
        "reduce/reduce_min/bool", "reduce/reduce_prod/bool", "reduce/reduce_sum/bool", "unary/abs/bool",
        "unary/acos/bool", "unary/acos/int32", "unary/acos/int64", "unary/acosh/bool", "unary/acosh/int32",
        "unary/acosh/int64", "unary/asin/bool", "unary/asin/int32", "unary/asin/int64", "unary/asinh/bool",
        "unary/asinh/int32", "unary/asinh/int64", "unary/atan/bool", "unary/atan/int32", "unary/atan/int64",
        "unary/atanh/bool", "unary/atanh/int32", "unary/atanh/int64", "unary/ceil/bool", "unary/ceil/int32",
        "unary/ceil/int64", "unary/cos/bool", "unary/cos/int32", "unary/cos/int64", "unary/cosh/bool",
        "unary/cosh/int32", "unary/cosh/int64", "unary/exp/bool", "unary/exp/int32", "unary/exp/int64",
        "unary/expm1/bool", "unary/expm1/int32", "unary/expm1/int64", "unary/floor/bool", "unary/floor/int32",
        "unary/floor/int64", "unary/is_finite/bool", "unary/is_finite/int32", "unary/is_finite/int64",
        "unary/is_inf/bool", "unary/is_inf/int32", "unary/is_inf/int64", "unary/is_nan/bool", "unary/is_nan/int32",
        "unary/is_nan/int64", "unary/log/bool", "unary/log/int32", "unary/log/int64", "unary/log1p/bool",
        "unary/log1p/int32", "unary/log1p/int64", "unary/math.log_sigmoid/bool", "unary/math.log_sigmoid/int32",
        "unary/math.log_sigmoid/int64", "unary/math.softplus/bool", "unary/math.softplus/int32",
        "unary/math.softplus/int64", "unary/negative/bool", "unary/nn.crelu/bool", "unary/nn.elu/bool",
        "unary/nn.elu/int32", "unary/nn.elu/int64", "unary/nn.l2_loss/bool", "unary/nn.l2_loss/int32",
        "unary/nn.l2_loss/int64", "unary/nn.l2_normalize/bool", "unary/nn.leaky_relu/bool",
        "unary/nn.log_softmax/bool", "unary/nn.log_softmax/int32", "unary/nn.log_softmax/int64",
        "unary/nn.relu/bool", "unary/nn.relu6/bool", "unary/nn.selu/bool", "unary/nn.selu/int32",
        "unary/nn.selu/int64", "unary/nn.softmax/bool", "unary/nn.softmax/int32", "unary/nn.softmax/int64",
        "unary/nn.softplus/bool", "unary/nn.softplus/int32", "unary/nn.softplus/int64", "unary/nn.softsign/bool",
        "unary/nn.softsign/int32", "unary/nn.softsign/int64", "unary/nn.swish/bool", "unary/nn.swish/int32",
        "unary/nn.swish/int64", "unary/reciprocal/bool", "unary/rint/bool", "unary/rint/int32", "unary/rint/int64",
        "unary/round/bool", "unary/rsqrt/bool", "unary/rsqrt/int32", "unary/rsqrt/int64", "unary/sigmoid/bool",
        "unary/sigmoid/int32", "unary/sigmoid/int64", "unary/sign/bool", "unary/sin/bool", "unary/sin/int32",
        "unary/sin/int64", "unary/sinh/bool", "unary/sinh/int32", "unary/sinh/int64", "unary/sqrt/bool",
        "unary/sqrt/int32", "unary/sqrt/int64", "unary/square/bool", "unary/tan/bool", "unary/tan/int32",
        "unary/tan/int64", "unary/tanh/bool", "unary/tanh/int32", "unary/tanh/int64",
    ],
    ("operand conversion: TF refuses to convert a Python or numpy float (or a number, for a bool tensor) "
     "to the other operand's integer or bool dtype and raises TypeError; ringflow converts it"): [
        "op/%/int32/py_float", "op/%/py_float/bool", "op/%/py_float/int32", "op/%/py_int/bool", "op/&/bool/py_float",
        "op/&/bool/py_int", "op/&/py_float/bool", "op/&/py_int/bool", "op/**/int32/py_float", "op/**/py_float/bool",
        "op/**/py_float/int32", "op/**/py_int/bool", "op/*/int32/py_float", "op/*/py_float/bool",
        "op/*/py_float/int32", "op/*/py_int/bool", "op/+/int32/py_float", "op/+/py_float/bool",
        "op/+/py_float/int32", "op/+/py_int/bool", "op/-/int32/py_float", "op/-/py_float/bool",
        "op/-/py_float/int32", "op/-/py_int/bool", "op////int32/py_float", "op////py_float/bool",
        "op////py_float/int32", "op////py_int/bool", "op///bool/py_float", "op///bool/py_int", "op///int32/py_float",
        "op///py_float/bool", "op///py_float/int32", "op///py_int/bool", "op/</int32/py_float",
        "op/</py_float/int32", "op/<=/int32/py_float", "op/<=/py_float/int32", "op/>/int32/py_float",
        "op/>/py_float/int32", "op/>=/int32/py_float", "op/>=/py_float/int32", "op/@/int32/py_float",
        "op/@/py_float/bool", "op/@/py_float/int32", "op/@/py_int/bool", "op/^/bool/py_float", "op/^/bool/py_int",
        "op/^/py_float/bool", "op/^/py_int/bool", "op/|/bool/py_int", "op/|/py_float/bool", "op/|/py_int/bool",
        "row/constant/bad_cast", "unary/nn.l2_normalize/int32", "unary/nn.l2_normalize/int64",
    ],
    ("numpy scalar on the left of an operator whose dtypes TF refuses: the reflected operator's TypeError "
     "makes numpy try Tensor.__array__, which raises NotImplementedError; ringflow raises the TypeError "
     "(or converts the scalar)"): [
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
    ("TF computes leaky_relu's alpha in float32 (0.2 becomes 0.20000000298 in float64) and casts integer "
     "features to float32; ringflow keeps alpha exact and integers as they are"): [
        "grad/nn.leaky_relu", "unary/nn.leaky_relu/float64", "unary/nn.leaky_relu/int32",
        "unary/nn.leaky_relu/int64",
    ],
    ("TF's gradient of gather and embedding_lookup is an IndexedSlices (fetched as IndexedSlicesValue); "
     "ringflow's is a dense Tensor"): [
        "grad_ys/gather", "grad_ys/nn.embedding_lookup", "row/gather", "row/nn.embedding_lookup",
    ],
    ("TF's nn.swish is a custom-gradient function whose output op is IdentityN; ringflow builds x * "
     "sigmoid(x)"): [
        "names/nn.swish",
    ],
    ("tg.constant infers int32 for every Python int; TF infers int64 when the value does not fit in int32"): [
        "row/constant/int64_value",
    ],
    ("image.rot90's static shape: TF leaves height and width unknown ([None, None, 1]); ringflow's is the "
     "exact [3, 2, 1]"): [
        "row/image.rot90",
    ],
    ("missing feature: ringflow's matmul takes 2-D operands only; TF's batches over leading dimensions"): [
        "row/matmul/batch",
    ],
    ("shape check: TF checks at construction that bias_add's bias matches the last dimension (ValueError); "
     "ringflow finds out at Session.run"): [
        "row/nn.bias_add/bad",
    ],
    ("shape check: TF's sparse_softmax_cross_entropy_with_logits requires labels of rank logits.rank - 1 "
     "at construction (ValueError); ringflow accepts [2, 1] labels"): [
        "row/nn.sparse_softmax_cross_entropy_with_logits/bad_rank",
    ],
    ("shape check: TF's reshape checks a known dimension divides the element count at construction "
     "(ValueError); ringflow finds out at Session.run"): [
        "row/reshape/bad_fed",
    ],
    ("static shape: TF's sequence_mask without maxlen folds max(lengths) of constant lengths into the "
     "shape ([2, 3]); ringflow leaves it unknown"): [
        "row/sequence_mask/nomax",
    ],
}


def reason(name):
    return next((why for why, names in KNOWN.items() if name in names), None)


def listed():
    return [name for names in KNOWN.values() for name in names]
