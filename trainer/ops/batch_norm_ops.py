"""tf.nn.batch_normalization and tf.nn.fused_batch_norm, built from elementwise and reduction ops."""
from ..framework.graph_wrappers import name_scope
from .array_ops import cast, shape, transpose
from .core_ops import convert_to_tensor
from .cwise_ops import rsqrt, squared_difference
from .math_ops import maximum
from .reduction_ops import reduce_mean, reduce_prod

# TF1's fused kernels need epsilon > 1e-5 (cuDNN's CUDNN_BN_MIN_EPSILON); smaller values are raised to this.
_MIN_EPSILON = 1.001e-5


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) / sqrt(variance + variance_epsilon) * scale + offset; offset and scale may be None."""
    with name_scope(name or "batchnorm"):
        x = convert_to_tensor(x)
        inv = rsqrt(convert_to_tensor(variance) + variance_epsilon)
        if scale is not None:
            inv = inv * scale
        shift = -convert_to_tensor(mean) * inv if offset is None else offset - mean * inv
        return x * inv + shift


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
        scale = convert_to_tensor(scale)
        compute = cast(nhwc, scale.dtype) if nhwc.dtype != scale.dtype else nhwc  # half inputs: float32 math
        if is_training:
            mean = reduce_mean(compute, axis=[0, 1, 2])
            biased = reduce_mean(squared_difference(compute, mean), axis=[0, 1, 2])
            count = cast(reduce_prod(shape(compute)[:3]), scale.dtype)
            y = batch_normalization(compute, mean, biased, offset, scale, epsilon)
            variance = biased * (count / maximum(count - 1.0, 1.0))
        else:
            mean, variance = convert_to_tensor(mean), convert_to_tensor(variance)
            y = batch_normalization(compute, mean, variance, offset, scale, epsilon)
        y = cast(y, x.dtype) if y.dtype != x.dtype else y
        if data_format == "NCHW":
            y = transpose(y, (0, 3, 1, 2))
        return y, mean, variance




def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None, variance_epsilon=None,
                                         scale_after_normalization=None, name=None, input=None, mean=None,  # noqa: A002
                                         variance=None):
    """TF1's older batch_normalization: t normalized with the global m and v, shifted by beta, scaled by gamma only
    when scale_after_normalization."""
    t = input if t is None else t
    m, v = mean if m is None else m, variance if v is None else v
    with name_scope(name or "batchnorm"):
        return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None, variance_epsilon)
