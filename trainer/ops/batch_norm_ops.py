"""tf.nn.batch_normalization, built from elementwise and reduction ops, and tf.nn.fused_batch_norm, TF1's fused
kernel FusedBatchNormV3 and its gradient FusedBatchNormGradV3: a handful of passes over the batch each way where
the composed ops and their gradients took about thirty."""
from ..framework.graph_wrappers import name_scope
from .array_ops import cast, transpose
from .core_ops import convert_to_tensor
from .cwise_ops import rsqrt, squared_difference, stop_gradient
from .gradients import gradients
from .math_ops import zeros_like
from .reduction_ops import reduce_mean, reduce_sum
from ..framework.registry import apply_op, get_array_module, register
from .tensor_util import static_shape

# TF1's fused kernels need epsilon > 1e-5 (cuDNN's CUDNN_BN_MIN_EPSILON); smaller values are raised to this.
_MIN_EPSILON = 1.001e-5
_AXES = (0, 1, 2)  # the kernels take NHWC; fused_batch_norm transposes NCHW around them


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) / sqrt(variance + variance_epsilon) * scale + offset; offset and scale may be None."""
    with name_scope(name or "batchnorm"):
        x = convert_to_tensor(x)
        inv = rsqrt(convert_to_tensor(variance) + variance_epsilon)
        if scale is not None:
            inv = inv * scale
        shift = -convert_to_tensor(mean) * inv if offset is None else offset - mean * inv
        return x * inv + shift


def _count(x):
    """The values each channel's statistics are taken over (1 for an empty batch, as reduce_mean divides)."""
    return max(x.size // max(x.shape[3], 1), 1)


def _mean(xp, x):
    return xp.true_divide(x.sum(axis=_AXES, dtype=x.dtype), _count(x), dtype=x.dtype)


def _fused_batch_norm(x, scale, offset, mean, variance, epsilon, is_training):
    """(y, batch mean, batch variance with Bessel's correction, mean, biased variance, an empty reserve), as
    TF1's CPU kernel returns them; inference passes the given statistics on."""
    xp = get_array_module(x)
    if is_training:
        mean = _mean(xp, x)
        variance = _mean(xp, xp.square(xp.subtract(x, mean)))
        count = _count(x)
        corrected = variance * (x.dtype.type(count) / x.dtype.type(max(count - 1.0, 1.0)))
    else:
        mean, variance = mean.copy(), variance.copy()
        corrected = variance.copy()
    inv = xp.reciprocal(xp.sqrt(variance + x.dtype.type(epsilon))) * scale
    y = xp.multiply(x, inv)
    y += offset - mean * inv
    return y, mean.copy(), corrected, mean, variance, xp.empty(0, dtype=x.dtype)


def _fused_batch_norm_grad(g, x, scale, mean, variance, reserve, epsilon, is_training):
    """(dx, dscale, doffset, two empty reserves): with batch statistics, dx = scale * inv * (g - mean(g) -
    xhat * mean(g * xhat)); with given ones, dx = g * scale * inv."""
    xp = get_array_module(g)
    inv = xp.reciprocal(xp.sqrt(variance + x.dtype.type(epsilon)))
    doffset = g.sum(axis=_AXES, dtype=g.dtype)
    centered = xp.subtract(x, mean)
    dscale = xp.multiply(g, centered).sum(axis=_AXES, dtype=g.dtype) * inv
    if is_training:
        count = g.dtype.type(_count(g))
        centered *= -scale * inv * inv * dscale / count
        centered += xp.multiply(g, scale * inv)
        centered -= scale * inv * doffset / count
        dx = centered
    else:
        dx = xp.multiply(g, scale * inv)
    return dx, dscale, doffset, xp.empty(0, dtype=g.dtype), xp.empty(0, dtype=g.dtype)


def _composed_grad(g, x, scale, mean, variance, epsilon, is_training):
    """FusedBatchNormGradV3's outputs built from differentiable ops: its own gradient is theirs (as TF1 does).
    With batch statistics they are taken from x again here, so that their own dependence on x is differentiated."""
    if is_training:
        mean = reduce_mean(x, _AXES)
        variance = reduce_mean(squared_difference(x, stop_gradient(mean)), _AXES)
    inv = rsqrt(variance + epsilon)
    centered = x - mean
    doffset = reduce_sum(g, _AXES)
    dscale = reduce_sum(g * centered, _AXES) * inv
    if not is_training:
        return g * (scale * inv), dscale, doffset
    dx = scale * inv * (g - reduce_mean(g, _AXES) - centered * (inv * reduce_mean(g * centered, _AXES) * inv))
    return dx, dscale, doffset


def _grad_of_grad(op, ggx, ggscale, ggoffset, *_):
    g, x, scale, mean, variance, _reserve = op.inputs
    outs = _composed_grad(g, x, scale, mean, variance, op.attrs["epsilon"], op.attrs["is_training"])
    pairs = [(o, gg) for o, gg in zip(outs, (ggx, ggscale, ggoffset)) if gg is not None]
    grads = gradients([o for o, _ in pairs], [g, x, scale], grad_ys=[gg for _, gg in pairs])
    return [*grads, None, None, None]


def _infer(x, scale, *rest, **attrs):
    channels = (static_shape(scale) or (None,))[:1]
    return [(static_shape(x), x.dtype)] + [(channels, scale.dtype)] * 4 + [((0,), scale.dtype)]


def _grad(op, g, *_):
    """TF1's: the gradients reaching the batch statistics are dropped (they feed moving averages)."""
    if g is None:
        return [None] * 5
    x, scale = op.inputs[:2]
    return [*apply_op("FusedBatchNormGradV3", [g, x, scale, *op.outputs[3:6]], **op.attrs)[:3], None, None]


register("FusedBatchNormV3", _fused_batch_norm, infer=_infer, fresh=True, grad=_grad)
register("FusedBatchNormGradV3", _fused_batch_norm_grad, fresh=True, grad=_grad_of_grad,
         infer=lambda g, x, scale, *rest, **attrs: [(static_shape(x), x.dtype)] + _infer(x, scale)[1:3] +
         [((0,), scale.dtype)] * 2)


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001, data_format="NHWC",
                     is_training=True, name=None):
    """(y, batch_mean, batch_variance) for 4-D x normalized per channel.

    Training: statistics of this batch (y uses the biased variance; the returned variance has Bessel's
    correction n/(n-1), for moving averages, as TF1's kernel returns). Inference: the given mean and variance,
    returned as they are.
    """
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"fused_batch_norm: data_format must be 'NHWC' or 'NCHW', got {data_format!r}")
    if not is_training and (mean is None or variance is None):
        raise ValueError("fused_batch_norm with is_training=False needs the population mean and variance")
    epsilon = max(float(epsilon), _MIN_EPSILON)
    with name_scope(name or "FusedBatchNorm"):
        x = convert_to_tensor(x)
        if x.ndim != 4:
            raise ValueError(f"fused_batch_norm needs a 4-D input, got {x.name!r} of shape {x.shape}")
        nhwc = x if data_format == "NHWC" else transpose(x, (0, 2, 3, 1))
        scale, offset = convert_to_tensor(scale), convert_to_tensor(offset, dtype=scale.dtype)
        compute = cast(nhwc, scale.dtype) if nhwc.dtype != scale.dtype else nhwc  # half inputs: float32 math
        if is_training:
            mean = variance = zeros_like(scale)  # TF1's kernel takes (and ignores) empty ones here
        mean, variance = convert_to_tensor(mean, dtype=scale.dtype), convert_to_tensor(variance, dtype=scale.dtype)
        y, batch_mean, batch_variance = apply_op("FusedBatchNormV3", [compute, scale, offset, mean, variance],
                                                 name="FusedBatchNormV3", epsilon=epsilon,
                                                 is_training=bool(is_training))[:3]
        y = cast(y, x.dtype) if y.dtype != x.dtype else y
        if data_format == "NCHW":
            y = transpose(y, (0, 3, 1, 2))
        return y, batch_mean, batch_variance
