"""space_to_depth and depth_to_space (NHWC): blocks of pixels moved into channels and back, each the other's
gradient."""
from ..framework.registry import apply_op, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .tensor_util import static_shape


def _space_to_depth(x, block_size):
    n, h, w, c = x.shape
    b = block_size
    if h % b or w % b:
        raise InvalidArgumentError(f"space_to_depth: height {h} and width {w} must be divisible by block_size {b}")
    return x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5).reshape(n, h // b, w // b, b * b * c)


def _depth_to_space(x, block_size):
    n, h, w, c = x.shape
    b = block_size
    if c % (b * b):
        raise InvalidArgumentError(f"depth_to_space: depth {c} must be divisible by block_size squared {b * b}")
    return x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5).reshape(n, h * b, w * b, c // (b * b))


def _scaled(d, factor):
    return None if d is None else d * factor


def _space_to_depth_infer(x, block_size):
    s = static_shape(x)
    if s is None:
        return [(None, x.dtype)]
    n, h, w, c = s
    return [((n, None if h is None else h // block_size, None if w is None else w // block_size,
              _scaled(c, block_size * block_size)), x.dtype)]


def _depth_to_space_infer(x, block_size):
    s = static_shape(x)
    if s is None:
        return [(None, x.dtype)]
    n, h, w, c = s
    return [((n, _scaled(h, block_size), _scaled(w, block_size),
              None if c is None else c // (block_size * block_size)), x.dtype)]


register("SpaceToDepth", lambda x, block_size: _space_to_depth(x, block_size).copy(), fresh=True,
         infer=_space_to_depth_infer, grad=lambda op, g: [depth_to_space(g, op.attrs["block_size"])])
register("DepthToSpace", lambda x, block_size: _depth_to_space(x, block_size).copy(), fresh=True,
         infer=_depth_to_space_infer, grad=lambda op, g: [space_to_depth(g, op.attrs["block_size"])])


def _checked(input, block_size, data_format, what):  # noqa: A002 - TF1's name
    x = convert_to_tensor(input)
    if data_format != "NHWC":
        raise NotImplementedError(f"{what} with data_format={data_format!r} is not supported; only NHWC")
    if int(block_size) < 2:
        raise ValueError(f"{what}: block_size must be at least 2, got {block_size!r}")
    if x.ndim is not None and x.ndim != 4:
        raise ValueError(f"{what} needs a 4-D NHWC tensor, got {x.name!r} of shape {x.shape}")
    return x


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002 - TF1's name
    """Each block_size x block_size block of pixels moved into the channels: [n, h/b, w/b, c*b*b]."""
    x = _checked(input, block_size, data_format, "space_to_depth")
    s = static_shape(x)
    if s is not None and any(d is not None and d % int(block_size) for d in s[1:3]):
        raise ValueError(f"space_to_depth: {x.name!r} of shape {x.shape} has a height or width not divisible by "
                         f"block_size {block_size}")
    return apply_op("SpaceToDepth", [x], name=name or "SpaceToDepth", block_size=int(block_size))


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002 - TF1's name
    """The channels spread back into block_size x block_size blocks of pixels: [n, h*b, w*b, c/(b*b)]."""
    x = _checked(input, block_size, data_format, "depth_to_space")
    s = static_shape(x)
    if s is not None and s[3] is not None and s[3] % (int(block_size) ** 2):
        raise ValueError(f"depth_to_space: {x.name!r} of shape {x.shape} has a depth not divisible by "
                         f"block_size squared {int(block_size) ** 2}")
    return apply_op("DepthToSpace", [x], name=name or "DepthToSpace", block_size=int(block_size))
