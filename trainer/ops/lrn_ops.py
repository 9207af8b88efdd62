"""Local response normalization (AlexNet's, TF1's tf.nn.lrn) across the last (depth) axis of NHWC images.

    sqr_sum[..., d] = sum(x[..., d - r : d + r + 1] ** 2)      (the window clipped at the depth's ends)
    y = x / (bias + alpha * sqr_sum) ** beta

alpha multiplies the plain sum, as in TF1 (PyTorch's LocalResponseNorm divides its alpha by the window size).
"""
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, get_array_module, infer_same, register

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _window_sum(a, radius):
    """sum of a[..., d - radius : d + radius + 1] for every depth d, zeros beyond the ends."""
    xp = get_array_module(a)
    depth = a.shape[-1]
    padded = xp.pad(a, [(0, 0)] * (a.ndim - 1) + [(radius, radius)])
    out = padded[..., 0:depth].copy()
    for i in range(1, 2 * radius + 1):  # 2r+1 shifted slabs: exact, where a cumsum difference would round
        out += padded[..., i:i + depth]
    return out


def _norm(x, depth_radius, bias, alpha):
    return bias + alpha * _window_sum(x * x, depth_radius)


def _lrn(x, depth_radius, bias, alpha, beta):
    return x / _norm(x, depth_radius, bias, alpha) ** beta


def _lrn_grad(g, x, y, depth_radius, bias, alpha, beta):
    # dx_k = g_k N_k^-beta - 2 alpha beta x_k sum_{d in window(k)} g_d y_d / N_d (the window is symmetric)
    norm = _norm(x, depth_radius, bias, alpha)
    return g * norm ** -beta - (2 * alpha * beta) * x * _window_sum(g * y / norm, depth_radius)


def _grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    return [apply_op("LRNGrad", [g, x, y], name="LRNGrad", **op.attrs)]


register("LRN", _lrn, infer=infer_same, grad=_grad, fresh=True)
register("LRNGrad", _lrn_grad, infer=lambda g, x, y, **attrs: [(x.shape, x.dtype)], fresh=True)


def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):  # noqa: A002
    """x / (bias + alpha * sum of x**2 over the 2*depth_radius+1 nearest depths) ** beta, on a 4-D NHWC tensor."""
    x = convert_to_tensor(input)
    if x.dtype.name not in _FLOATS:
        raise TypeError(f"lrn needs a floating-point input, got {x.name!r} of dtype {x.dtype.name}; "
                        "cast it with tg.cast(x, tg.float32)")
    if x.ndim is not None and x.ndim != 4:
        raise ValueError(f"lrn needs a 4-D input (batch, height, width, depth), got {x.name!r} of shape {x.shape}")
    if int(depth_radius) != depth_radius or depth_radius < 0:
        raise ValueError(f"lrn: depth_radius must be a non-negative integer, got {depth_radius!r}")
    return apply_op("LRN", [x], name=name or "LRN", depth_radius=int(depth_radius), bias=float(bias),
                    alpha=float(alpha), beta=float(beta))


lrn = local_response_normalization
