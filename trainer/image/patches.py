"""extract_patches (TF1's extract_image_patches): every ksize window of an NHWC image, its taps `rates` apart,
flattened into the depth dim; the gradient scatters each tap back to the pixel it came from."""
import numpy as np

from ..framework.registry import host_kernel
from ..framework.registry import apply_op, register
from ..ops.core_ops import convert_to_tensor
from ..ops.kernels.conv import out_size
from ..ops.tensor_util import static_shape


def _taps(shape, ksizes, strides, rates, padding):
    """For each output position and tap, the (row, col) it reads in the padded image, and the padding."""
    (_, h, w, _), (kh, kw), (sh, sw), (rh, rw) = shape, ksizes, strides, rates
    eff_h, eff_w = (kh - 1) * rh + 1, (kw - 1) * rw + 1
    (oh, pad_h), (ow, pad_w) = out_size(h, eff_h, sh, padding), out_size(w, eff_w, sw, padding)
    rows = (np.arange(max(oh, 0)) * sh)[:, None, None, None] + (np.arange(kh) * rh)[None, None, :, None]
    cols = (np.arange(max(ow, 0)) * sw)[None, :, None, None] + (np.arange(kw) * rw)[None, None, None, :]
    return rows, cols, pad_h, pad_w


def _extract(images, ksizes, strides, rates, padding):
    rows, cols, pad_h, pad_w = _taps(images.shape, ksizes, strides, rates, padding)
    padded = np.pad(images, [(0, 0), pad_h, pad_w, (0, 0)])
    patches = padded[:, rows, cols, :]  # [batch, oh, ow, kh, kw, depth]
    b, oh, ow = patches.shape[:3]
    return np.ascontiguousarray(patches).reshape(b, oh, ow, -1)


def _extract_grad(g, images, ksizes, strides, rates, padding):
    rows, cols, pad_h, pad_w = _taps(images.shape, ksizes, strides, rates, padding)
    b, h, w, d = images.shape
    padded = np.zeros((b, h + sum(pad_h), w + sum(pad_w), d), g.dtype)
    taps = g.reshape(g.shape[:3] + (ksizes[0], ksizes[1], d))
    rows, cols = np.broadcast_arrays(rows, cols)
    np.add.at(padded, (slice(None), rows, cols, slice(None)), taps)
    return padded[:, pad_h[0]:pad_h[0] + h, pad_w[0]:pad_w[0] + w, :]


def _infer(images, ksizes, strides, rates, padding):
    s = static_shape(images)
    if s is None:
        return [(None, images.dtype)]
    b, h, w, d = s
    dims = [None if n is None else out_size(n, (k - 1) * r + 1, st, padding)[0]
            for n, k, st, r in zip((h, w), ksizes, strides, rates)]
    return [((b, *dims, None if d is None else d * ksizes[0] * ksizes[1]), images.dtype)]


register("ExtractImagePatches", kernel=host_kernel(_extract), infer=_infer, fresh=True,
         grad=lambda op, g: [apply_op("ExtractImagePatchesGrad", [g, op.inputs[0]], **op.attrs)])
register("ExtractImagePatchesGrad", kernel=host_kernel(_extract_grad), infer=lambda g, x, **attrs: [(x.shape, g.dtype)],
         fresh=True)


def _four(values, what):
    values = [int(v) for v in values]
    if len(values) != 4 or values[0] != 1 or values[3] != 1:
        raise ValueError(f"extract_patches: {what} must be [1, rows, cols, 1], got {values!r}")
    return tuple(values[1:3])


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """[batch, out_rows, out_cols, size_rows * size_cols * depth]: each window of the NHWC `images`."""
    x = convert_to_tensor(images)
    if x.ndim is not None and x.ndim != 4:
        raise ValueError(f"extract_patches needs a 4-D NHWC tensor, got {x.name!r} of shape {x.shape}")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"extract_patches: padding must be 'SAME' or 'VALID', got {padding!r}")
    return apply_op("ExtractImagePatches", [x], name=name or "ExtractImagePatches", ksizes=_four(sizes, "sizes"),
                    strides=_four(strides, "strides"), rates=_four(rates, "rates"), padding=padding)


def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None, name=None, sizes=None):
    """TF1's name of extract_patches (ksizes for sizes)."""
    return extract_patches(images, ksizes if sizes is None else sizes, strides, rates, padding, name=name)
