"""Resizing images: ResizeBilinear and ResizeNearestNeighbor with TF1's sampling, their gradients, resize_images.

Where output pixel i samples the input (scale computed in float32, as TF1's kernels do):
  legacy (TF1's default, align_corners=False):  src = i * in / out
  align_corners=True:                           src = i * (in - 1) / (out - 1)   (0 when out == 1)
  half_pixel_centers=True (bilinear only here): src = (i + 0.5) * in / out - 0.5
Bilinear mixes rows floor(src) and min(ceil(src), in - 1) by src - floor(src), then columns the same way, in
float32; nearest takes min(floor(src), in - 1) (round(src) with align_corners). Bicubic weighs the four rows
around src with Keys' cubic (a = -0.75, or -0.5 with half-pixel centers, where taps outside the image drop out and
the rest are renormalized), read from TF's 1024-entry table; area averages the input cells [i * scale,
(i + 1) * scale) covers, by the fraction covered. All are separable: bicubic and area run as two products with
their sampling matrices, and each gradient is the transposed matrices applied to the output gradient.
"""
import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..ops.core_ops import convert_to_tensor
from ..framework.registry import apply_op, get_array_module, register
from ..ops.shape_ops import expand_dims, squeeze
from ..ops.tensor_util import static_ints, static_shape


def _sources(xp, in_size, out_size, align_corners, half_pixel):
    scale = np.float32((in_size - 1) / np.float32(out_size - 1) if align_corners and out_size > 1
                       else in_size / np.float32(out_size))
    i = xp.arange(out_size, dtype=np.float32)
    return (i + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel else i * scale


def _bilinear_taps(xp, in_size, out_size, align_corners, half_pixel):
    src = _sources(xp, in_size, out_size, align_corners, half_pixel)
    floor = xp.floor(src)
    lo = xp.maximum(floor, 0).astype(np.int64)
    hi = xp.minimum(xp.ceil(src), in_size - 1).astype(np.int64)
    return lo, hi, (src - floor).astype(np.float32)


def _nearest_taps(xp, in_size, out_size, align_corners, half_pixel):
    src = _sources(xp, in_size, out_size, align_corners, False)
    pick = xp.floor(src)
    if align_corners:  # TF1's roundf: halves go up (src >= 0 here)
        pick = pick + (src - pick >= np.float32(0.5))
    return xp.minimum(pick, in_size - 1).astype(np.int64)


def _bilinear(images, size, align_corners, half_pixel_centers, out_dtype=np.float32):
    xp = get_array_module(images)
    x = images.astype(np.float32, copy=False)
    (_, h, w, _), (oh, ow) = images.shape, size
    ylo, yhi, dy = _bilinear_taps(xp, h, oh, align_corners, half_pixel_centers)
    xlo, xhi, dx = _bilinear_taps(xp, w, ow, align_corners, half_pixel_centers)
    dx = dx[None, None, :, None]
    top, bottom = xp.take(x, ylo, axis=1), xp.take(x, yhi, axis=1)
    top_left, bottom_left = xp.take(top, xlo, axis=2), xp.take(bottom, xlo, axis=2)
    upper = top_left + (xp.take(top, xhi, axis=2) - top_left) * dx
    lower = bottom_left + (xp.take(bottom, xhi, axis=2) - bottom_left) * dx
    return upper + (lower - upper) * dy[None, :, None, None]


def _nearest(images, size, align_corners, half_pixel_centers):
    xp = get_array_module(images)
    (_, h, w, _), (oh, ow) = images.shape, size
    rows = _nearest_taps(xp, h, oh, align_corners, half_pixel_centers)
    cols = _nearest_taps(xp, w, ow, align_corners, half_pixel_centers)
    return xp.take(xp.take(images, rows, axis=1), cols, axis=2)


CUBIC_TABLE = 1024  # TF's kernel reads Keys' cubic from a table of this many steps per unit


def _cubic_table(a):
    x = np.arange(CUBIC_TABLE + 1, dtype=np.float32).astype(np.float64) / CUBIC_TABLE
    x = x.astype(np.float32).astype(np.float64)
    near = (((a + 2) * x - (a + 3)) * x * x + 1).astype(np.float32)
    far = (((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a).astype(np.float32)
    return near, far


def _cubic_matrix(in_size, out_size, align_corners, half_pixel):
    """[out_size, in_size] weights of TF's ResizeBicubic along one axis (float64 holding float32 weights)."""
    near, far = _cubic_table(-0.5 if half_pixel else -0.75)
    src = _sources(np, in_size, out_size, align_corners, half_pixel)
    base = np.floor(src).astype(np.int64)
    offset = np.rint((src - base) * np.float32(CUBIC_TABLE)).astype(np.int64)
    weights = np.stack([far[offset], near[offset], near[CUBIC_TABLE - offset], far[CUBIC_TABLE - offset]], 1)
    taps = base[:, None] + np.arange(-1, 3)
    index = np.clip(taps, 0, in_size - 1)
    if half_pixel:  # Keys' form: taps outside the image drop out, the others are renormalized
        weights = np.where(index == taps, weights, np.float32(0))
        total = ((weights[:, :1] + weights[:, 1:2]) + weights[:, 2:3]) + weights[:, 3:]  # TF's order, in float32
        weights = np.where(np.abs(total) >= 1000 * np.finfo(np.float32).tiny, weights * (np.float32(1) / total),
                           weights)
    out = np.zeros((out_size, in_size))
    np.add.at(out, (np.repeat(np.arange(out_size), 4), index.reshape(-1)), weights.reshape(-1))
    return out


def _area_matrix(in_size, out_size, align_corners):
    """[out_size, in_size] weights of TF's ResizeArea along one axis: each cell's covered fraction / scale."""
    scale = np.float32((in_size - 1) / np.float32(out_size - 1) if align_corners and out_size > 1
                       else in_size / np.float32(out_size))
    out = np.zeros((out_size, in_size))
    for y in range(out_size):
        lo, hi = np.float32(y * scale), np.float32((y + 1) * scale)
        for i in range(int(np.floor(lo)), int(np.ceil(hi))):
            cover = (scale if i + 1 > hi else i + 1 - lo) if i < lo else (hi - i if i + 1 > hi else 1.0)
            out[y, min(i, in_size - 1)] += np.float32(cover)
    return out / scale


def _sampling_matrix(xp, in_size, out_size, op_type, attrs, dtype):
    """[out_size, in_size]: row i holds the weights output i gives each input index along one axis."""
    if op_type == "ResizeBicubic":
        return xp.asarray(_cubic_matrix(in_size, out_size, attrs["align_corners"], attrs["half_pixel_centers"]),
                          dtype)
    if op_type == "ResizeArea":
        return xp.asarray(_area_matrix(in_size, out_size, attrs["align_corners"]), dtype)
    cols = xp.arange(in_size)[None, :]
    if op_type == "ResizeNearestNeighbor":
        pick = _nearest_taps(xp, in_size, out_size, attrs["align_corners"], attrs["half_pixel_centers"])
        return (cols == pick[:, None]).astype(dtype)
    lo, hi, t = _bilinear_taps(xp, in_size, out_size, attrs["align_corners"], attrs["half_pixel_centers"])
    t = t.astype(dtype)[:, None]
    return (cols == lo[:, None]).astype(dtype) * (1 - t) + (cols == hi[:, None]).astype(dtype) * t


def _resize_grad_kernel(op_type):
    def run(g, images, **attrs):
        xp = get_array_module(g)
        (_, h, w, _), (oh, ow) = images.shape, g.shape[1:3]
        dtype = images.dtype if images.dtype.kind == "f" else g.dtype
        rows = _sampling_matrix(xp, h, oh, op_type, attrs, dtype)
        cols = _sampling_matrix(xp, w, ow, op_type, attrs, dtype)
        channels_first = xp.moveaxis(g.astype(dtype, copy=False), 3, 1)  # [n, c, out_h, out_w]
        back = xp.matmul(xp.matmul(rows.T, channels_first), cols)      # [n, c, h, w]
        return xp.ascontiguousarray(xp.moveaxis(back, 1, 3))
    return run


def _separable(op_type):
    """The forward of a resize given by its sampling matrices: rows, then columns, in float32."""
    def run(images, size, align_corners, half_pixel_centers=False, out_dtype=None):
        xp = get_array_module(images)
        attrs = dict(align_corners=align_corners, half_pixel_centers=half_pixel_centers)
        rows = _sampling_matrix(xp, images.shape[1], size[0], op_type, attrs, np.float32)
        cols = _sampling_matrix(xp, images.shape[2], size[1], op_type, attrs, np.float32)
        channels_first = xp.moveaxis(images.astype(np.float32), 3, 1)  # [n, c, h, w]
        out = xp.matmul(xp.matmul(rows, channels_first), cols.T)
        return xp.ascontiguousarray(xp.moveaxis(out, 1, 3))
    return run


def _infer(images, size, align_corners, half_pixel_centers=False, out_dtype=None):
    n, _, _, c = static_shape(images) if images.ndim == 4 else (None,) * 4
    return [((n, size[0], size[1], c), out_dtype or images.dtype)]


def _grad(op_type):
    def rule(op, g):
        images = op.inputs[0]
        if images.dtype.kind != "f":
            return [None]
        attrs = {k: v for k, v in op.attrs.items() if k != "out_dtype"}
        return [apply_op(op_type + "Grad", [g, images], **attrs)]
    return rule


register("ResizeBilinear", _bilinear, infer=_infer, grad=_grad("ResizeBilinear"), fresh=True)
register("ResizeNearestNeighbor", _nearest, infer=_infer, grad=_grad("ResizeNearestNeighbor"), fresh=True)
register("ResizeBicubic", _separable("ResizeBicubic"), infer=_infer, grad=_grad("ResizeBicubic"), fresh=True)
register("ResizeArea", _separable("ResizeArea"), infer=_infer, fresh=True)  # TF gives ResizeArea no gradient
_OUT = {"ResizeBilinear": {"out_dtype": dtypes.float32}, "ResizeNearestNeighbor": {},
        "ResizeBicubic": {"out_dtype": dtypes.float32}}
for _type in _OUT:
    # The gradient is linear in g: its own gradient is the resize again.
    register(_type + "Grad", _resize_grad_kernel(_type), fresh=True,
             infer=lambda g, images, **a: [(images.shape, images.dtype if images.dtype.kind == "f" else g.dtype)],
             grad=lambda op, gg, _type=_type: [apply_op(_type, [gg], **op.attrs, **_OUT[_type]), None])


def _resize_op(op_type, images, size, align_corners, half_pixel_centers, name, what):
    images = convert_to_tensor(images)
    if images.ndim != 4:
        raise ValueError(f"{what}: 'images' must be 4-D [batch, height, width, channels], got {images.name!r} of "
                         f"shape {images.shape}")
    new = static_ints(size, f"{what}: size")
    if len(new) != 2 or min(new) <= 0:
        raise ValueError(f"{what}: size must be 2 positive ints [new_height, new_width], got {size!r}")
    if align_corners and half_pixel_centers:
        raise ValueError(f"{what}: align_corners and half_pixel_centers cannot both be True")
    if half_pixel_centers and op_type == "ResizeNearestNeighbor":
        raise NotImplementedError(f"{what}: half_pixel_centers=True is not implemented for nearest neighbour "
                                  "in ringflow (TF1's default, False, is)")
    if images.dtype.kind not in "iuf":
        raise TypeError(f"{what}: images of dtype {images.dtype.name} cannot be resized; use integers or floats")
    attrs = dict(size=tuple(new), align_corners=bool(align_corners), half_pixel_centers=bool(half_pixel_centers))
    attrs.update(_OUT.get(op_type, {"out_dtype": dtypes.float32}))  # TF1's bilinear, bicubic, area: float32
    return apply_op(op_type, [images], name=name or op_type, **attrs)


def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """[batch, height, width, channels] images resized to size = [new_height, new_width] bilinearly (float32)."""
    return _resize_op("ResizeBilinear", images, size, align_corners, half_pixel_centers, name, "resize_bilinear")


def resize_nearest_neighbor(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """[batch, height, width, channels] images resized to size = [new_height, new_width] by nearest neighbour."""
    return _resize_op("ResizeNearestNeighbor", images, size, align_corners, half_pixel_centers, name,
                      "resize_nearest_neighbor")


def resize_bicubic(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """[batch, height, width, channels] images resized to size = [new_height, new_width] by Keys' bicubic
    (float32)."""
    return _resize_op("ResizeBicubic", images, size, align_corners, half_pixel_centers, name, "resize_bicubic")


def resize_area(images, size, align_corners=False, name=None):
    """[batch, height, width, channels] images resized to size = [new_height, new_width] by averaging the area
    each output pixel covers (float32; TF gives it no gradient)."""
    return _resize_op("ResizeArea", images, size, align_corners, False, name, "resize_area")


class ResizeMethod:
    """TF1's resize methods (tf.image.ResizeMethod)."""
    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


_METHODS = {ResizeMethod.BILINEAR: resize_bilinear, "bilinear": resize_bilinear,
            ResizeMethod.NEAREST_NEIGHBOR: resize_nearest_neighbor, "nearest": resize_nearest_neighbor,
            ResizeMethod.BICUBIC: resize_bicubic, "bicubic": resize_bicubic,
            ResizeMethod.AREA: resize_area, "area": resize_area}


def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False, preserve_aspect_ratio=False,
                  name=None):
    """One image or a batch resized to size = [new_height, new_width] (bilinear gives float32, nearest keeps the
    dtype; an image already of that size is returned as it is)."""
    if method not in _METHODS:
        raise ValueError(f"resize_images: unknown method {method!r}; use one of tf.image.ResizeMethod's")
    with name_scope(name or "resize"):
        images = convert_to_tensor(images)
        if images.ndim not in (3, 4):
            raise ValueError(f"resize_images: 'images' must have either 3 or 4 dimensions, got {images.name!r} of "
                             f"shape {images.shape}")
        new = static_ints(size, "resize_images: size")
        if len(new) != 2:
            raise ValueError(f"resize_images: size must be a 1-D Tensor of 2 elements (new_height, new_width), "
                             f"got {size!r}")
        height, width = static_shape(images)[-3:-1]
        if preserve_aspect_ratio:
            if height is None or width is None:
                raise NotImplementedError(f"resize_images: preserve_aspect_ratio needs the height and width of "
                                          f"{images.name!r} known while building in ringflow")
            factor = min(np.float32(new[0]) / np.float32(height), np.float32(new[1]) / np.float32(width))
            new = [int(np.round(factor * np.float32(height))), int(np.round(factor * np.float32(width)))]
        if (height, width) == tuple(new):
            return images
        batch = images if images.ndim == 4 else expand_dims(images, 0)
        out = _METHODS[method](batch, new, align_corners=align_corners)
        return out if images.ndim == 4 else squeeze(out, [0])


resize = resize_images
