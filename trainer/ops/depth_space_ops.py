"""Blocks of pixels moved into channels or into the batch and back: space_to_depth and depth_to_space (NHWC),
space_to_batch_nd and batch_to_space_nd (how atrous convolution is built); each pair is its own gradient."""
import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.registry import apply_op, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .array_ops import zeros
from ..framework.graph_wrappers import name_scope
from .stack_ops import stack
from .tensor_util import constant_value, static_shape


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


register("SpaceToDepth", kernel=host_kernel(lambda x, block_size: _space_to_depth(x, block_size).copy()), fresh=True,
         infer=_space_to_depth_infer, grad=lambda op, g: [depth_to_space(g, op.attrs["block_size"])])
register("DepthToSpace", kernel=host_kernel(lambda x, block_size: _depth_to_space(x, block_size).copy()), fresh=True,
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


def _space_to_batch(x, block_shape, paddings):
    blocks, pads = [int(b) for b in block_shape], np.asarray(paddings, np.int64).reshape(-1, 2)
    m = len(blocks)
    if (pads < 0).any():
        raise InvalidArgumentError(f"space_to_batch_nd: paddings must be non-negative, got {pads.tolist()}")
    x = np.pad(x, [(0, 0), *[tuple(p) for p in pads], *[(0, 0)] * (x.ndim - 1 - m)])
    spatial = x.shape[1:1 + m]
    if any(d % b for d, b in zip(spatial, blocks)):
        raise InvalidArgumentError(f"space_to_batch_nd: padded spatial shape {spatial} must be divisible by "
                                   f"block_shape {blocks}")
    split = [x.shape[0]] + [v for d, b in zip(spatial, blocks) for v in (d // b, b)] + list(x.shape[1 + m:])
    order = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(1 + 2 * m, len(split)))
    y = x.reshape(split).transpose(order)
    return y.reshape([x.shape[0] * int(np.prod(blocks))] + [d // b for d, b in zip(spatial, blocks)]
                     + list(x.shape[1 + m:]))


def _batch_to_space(x, block_shape, crops):
    blocks, crops = [int(b) for b in block_shape], np.asarray(crops, np.int64).reshape(-1, 2)
    m, prod = len(blocks), int(np.prod(blocks))
    if x.shape[0] % prod:
        raise InvalidArgumentError(f"batch_to_space_nd: batch {x.shape[0]} is not divisible by the product of "
                                   f"block_shape {blocks}")
    batch, spatial, rest = x.shape[0] // prod, x.shape[1:1 + m], list(x.shape[1 + m:])
    y = x.reshape(blocks + [batch] + list(spatial) + rest)
    order = [m] + [v for i in range(m) for v in (m + 1 + i, i)] + list(range(2 * m + 1, y.ndim))
    y = y.transpose(order).reshape([batch] + [d * b for d, b in zip(spatial, blocks)] + rest)
    index = [slice(None)] + [slice(int(c[0]), y.shape[1 + i] - int(c[1])) for i, c in enumerate(crops)]
    return y[tuple(index)].copy()


def _blocks_infer(x, block_shape, amounts, to_batch):
    s, blocks, amounts = static_shape(x), constant_value(block_shape), constant_value(amounts)
    if s is None or blocks is None or amounts is None:
        return [(None if s is None else (None,) * len(s), x.dtype)]
    blocks, amounts = [int(b) for b in np.ravel(blocks)], np.asarray(amounts).reshape(-1, 2)
    m, prod = len(blocks), int(np.prod(blocks))
    if to_batch:
        batch = None if s[0] is None else s[0] * prod
        spatial = [None if d is None else (d + int(a[0]) + int(a[1])) // b for d, b, a in zip(s[1:], blocks, amounts)]
    else:
        batch = None if s[0] is None else s[0] // prod
        spatial = [None if d is None else d * b - int(a[0]) - int(a[1]) for d, b, a in zip(s[1:], blocks, amounts)]
    return [((batch, *spatial, *s[1 + m:]), x.dtype)]


register("SpaceToBatchND", kernel=host_kernel(_space_to_batch), fresh=True,
         infer=lambda x, b, p: _blocks_infer(x, b, p, True),
         grad=lambda op, g: [batch_to_space_nd(g, op.inputs[1], op.inputs[2]), None, None])
register("BatchToSpaceND", kernel=host_kernel(_batch_to_space), fresh=True,
         infer=lambda x, b, c: _blocks_infer(x, b, c, False),
         grad=lambda op, g: [space_to_batch_nd(g, op.inputs[1], op.inputs[2]), None, None])


def _block_args(what, x, block_shape, amounts):
    x = convert_to_tensor(x)
    block_shape = convert_to_tensor(block_shape, dtype=dtypes.int32)
    amounts = convert_to_tensor(amounts, dtype=block_shape.dtype)
    blocks, known = constant_value(block_shape), constant_value(amounts)
    if blocks is not None:
        m = int(np.size(blocks))
        if np.ndim(blocks) != 1 or m < 1:
            raise ValueError(f"{what}: block_shape must be a vector of at least one int, got {blocks.tolist()}")
        if (np.asarray(blocks) < 1).any():
            raise ValueError(f"{what}: block_shape must be positive, got {blocks.tolist()}")
        if known is not None and np.shape(known) != (m, 2):
            raise ValueError(f"{what}: paddings or crops must have shape [{m}, 2], got {np.shape(known)}")
        if x.ndim is not None and x.ndim < m + 1:
            raise ValueError(f"{what}: {x.name!r} of shape {x.shape} has fewer than the {m} spatial dims of "
                             "block_shape after its batch dim")
        _check_divisible(what, static_shape(x), [int(b) for b in np.ravel(blocks)], known)
    return x, block_shape, amounts


def _check_divisible(what, shape, blocks, amounts):
    """TF1's build-time check where the shape is known: padded spatial dims (space_to_batch_nd), or the batch
    (batch_to_space_nd), divisible by the blocks."""
    if shape is None or amounts is None:
        return
    amounts = np.asarray(amounts).reshape(-1, 2)
    if what.startswith("space"):
        for d, b, (before, after) in zip(shape[1:], blocks, amounts):
            if d is not None and (d + before + after) % b:
                raise ValueError(f"{what}: padded size {d + before + after} is not divisible by block size {b}")
    elif shape[0] is not None and shape[0] % int(np.prod(blocks)):
        raise ValueError(f"{what}: batch {shape[0]} is not divisible by the product of block_shape {blocks}")


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002 - TF1's name
    """The spatial dims padded, cut into blocks of block_shape, and each block offset moved into the batch."""
    args = _block_args("space_to_batch_nd", input, block_shape, paddings)
    return apply_op("SpaceToBatchND", list(args), name=name or "SpaceToBatchND")


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002 - TF1's name
    """space_to_batch_nd undone: batch entries interleaved back into the spatial dims, then `crops` cut off."""
    args = _block_args("batch_to_space_nd", input, block_shape, crops)
    return apply_op("BatchToSpaceND", list(args), name=name or "BatchToSpaceND")


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # noqa: A002 - TF1's name
    """TF1's 4-D form: space_to_batch_nd with a square block of block_size over height and width."""
    size = block_shape if block_size is None else block_size
    return space_to_batch_nd(input, [int(size)] * 2, paddings, name=name)


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # noqa: A002 - TF1's name
    """TF1's 4-D form: batch_to_space_nd with a square block of block_size over height and width."""
    size = block_shape if block_size is None else block_size
    return batch_to_space_nd(input, [int(size)] * 2, crops, name=name)


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops) for space_to_batch_nd and batch_to_space_nd: base_paddings plus what makes each padded
    spatial dim of `input_shape` a multiple of its block size, and the crops that take that extra off again."""
    with name_scope(name, "required_space_to_batch_paddings"):
        input_shape = convert_to_tensor(input_shape, dtype=dtypes.int32, name="input_shape")
        block_shape = convert_to_tensor(block_shape, dtype=dtypes.int32, name="block_shape")
        known = static_shape(block_shape)
        if known is None or len(known) != 1 or known[0] is None:
            raise ValueError(f"required_space_to_batch_paddings needs a block_shape vector of known length, got "
                             f"{block_shape.name!r} of shape {block_shape.shape}")
        dims = known[0]
        if dims == 0:
            return zeros([0, 2], dtypes.int32), zeros([0, 2], dtypes.int32)
        if base_paddings is None:
            base_paddings = zeros([dims, 2], dtypes.int32)
        base_paddings = convert_to_tensor(base_paddings, dtype=dtypes.int32, name="base_paddings")
        constants = [constant_value(t) for t in (block_shape, input_shape, base_paddings)]
        if all(c is not None for c in constants):  # TF1 computes known shapes in numpy: constants come out
            block_shape, input_shape, base_paddings = constants
        pad_start, pad_end = base_paddings[:, 0], base_paddings[:, 1]
        extra = (block_shape - (input_shape + pad_start + pad_end) % block_shape) % block_shape
        pad_end = pad_end + extra
        return (stack([[pad_start[i], pad_end[i]] for i in range(dims)], name="paddings"),
                stack([[0, extra[i]] for i in range(dims)], name="crops"))
