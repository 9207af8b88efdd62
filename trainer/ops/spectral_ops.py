"""The discrete Fourier transforms of tf.signal (tf.spectral in TF1) over the innermost 1, 2 or 3 dims: fft/ifft on
complex64/complex128, rfft (real in, the non-negative frequencies out) and irfft, each with TF1's gradient.

For a linear map y = A x TF's gradient is A^H g: fft's is n * ifft(g), ifft's fft(g) / n, and rfft's the real part
of the full inverse transform of g padded with zeros for the frequencies rfft leaves out.
"""
import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.registry import apply_op, register
from .complex_ops import COMPLEX_OF, REAL_OF
from .core_ops import convert_to_tensor
from .tensor_util import constant_value, static_shape

NAMES = {1: "", 2: "2D", 3: "3D"}


def _axes(rank):
    return tuple(range(-rank, 0))


def _count(x, rank):
    return float(np.prod(x.shape[-rank:])) if rank else 1.0


def _fit(x, lengths):
    """x cropped or zero-padded in its last len(lengths) dims to `lengths` (how TF sizes rfft's input)."""
    rank = len(lengths)
    x = x[(Ellipsis, *[slice(0, n) for n in lengths])]
    pad = [(0, 0)] * (x.ndim - rank) + [(0, n - d) for n, d in zip(lengths, x.shape[-rank:])]
    return np.pad(x, pad) if any(p for _, p in pad) else x


def _rfft(x, fft_length, Tcomplex):
    lengths = [int(n) for n in fft_length]
    return np.fft.rfftn(_fit(x, lengths), axes=_axes(len(lengths))).astype(Tcomplex)


def _irfft(z, fft_length, Treal):
    lengths = [int(n) for n in fft_length]
    half = lengths[:-1] + [lengths[-1] // 2 + 1]
    return np.fft.irfftn(_fit(z, half), s=lengths, axes=_axes(len(lengths))).astype(Treal)


def _rfft_grad_kernel(g, x, fft_length):
    """real(A^H g): g spread over the whole spectrum (zeros where rfft drops frequencies), inverted, real part."""
    lengths = [int(n) for n in fft_length]
    rank = len(lengths)
    full = _fit(g, lengths)
    spread = np.real(np.fft.ifftn(full, axes=_axes(rank))) * float(np.prod(lengths))
    return _fit(spread, list(x.shape[-rank:])).astype(x.dtype)


def _irfft_grad_kernel(g, z, fft_length):
    """TF1's: rfft(g) scaled by 1/n, with the frequencies that appear twice in the real signal counted twice."""
    lengths = [int(n) for n in fft_length]
    rank = len(lengths)
    spectrum = np.fft.rfftn(g, axes=_axes(rank)) / float(np.prod(lengths))
    mask = np.full(lengths[-1] // 2 + 1, 2.0)
    mask[0] = 1.0
    if lengths[-1] % 2 == 0:
        mask[-1] = 1.0
    return _fit(spectrum * mask, list(z.shape[-rank:])).astype(z.dtype)


def _lengths_infer(x, fft_length, half, dtype):
    s, n = static_shape(x), constant_value(fft_length)
    if s is None:
        return [(None, dtype)]
    rank = int(np.size(n)) if n is not None else static_shape(fft_length)[0]
    if n is None:
        return [(s[:-rank] + (None,) * rank, dtype)]
    dims = [int(d) for d in np.ravel(n)]
    if half:
        dims[-1] = dims[-1] // 2 + 1
    return [(s[:-rank] + tuple(dims), dtype)]


for _rank, _suffix in NAMES.items():
    register(f"FFT{_suffix}",
             kernel=host_kernel(lambda x, rank=_rank: np.fft.fftn(x, axes=_axes(rank)).astype(x.dtype)),
             infer=lambda x: [(x.shape, x.dtype)], fresh=True,
             grad=lambda op, g, rank=_rank: [apply_op(f"IFFT{NAMES[rank]}", [g]) * _size(op.inputs[0], rank)])
    register(f"IFFT{_suffix}",
             kernel=host_kernel(lambda x, rank=_rank: np.fft.ifftn(x, axes=_axes(rank)).astype(x.dtype)),
             infer=lambda x: [(x.shape, x.dtype)], fresh=True,
             grad=lambda op, g, rank=_rank: [apply_op(f"FFT{NAMES[rank]}", [g]) / _size(op.inputs[0], rank)])
    register(f"RFFT{_suffix}", kernel=host_kernel(_rfft), fresh=True,
             infer=lambda x, n, Tcomplex: _lengths_infer(x, n, True, Tcomplex),
             grad=lambda op, g: [apply_op("RFFTGrad", [g, op.inputs[0], op.inputs[1]]), None])
    register(f"IRFFT{_suffix}", kernel=host_kernel(_irfft), fresh=True,
             infer=lambda z, n, Treal: _lengths_infer(z, n, False, Treal),
             grad=lambda op, g: [apply_op("IRFFTGrad", [g, op.inputs[0], op.inputs[1]]), None])
register("RFFTGrad", kernel=host_kernel(_rfft_grad_kernel), infer=lambda g, x, n: [(x.shape, x.dtype)], fresh=True)
register("IRFFTGrad", kernel=host_kernel(_irfft_grad_kernel), infer=lambda g, z, n: [(z.shape, z.dtype)], fresh=True)


def _size(x, rank):
    """The number of points transformed, as a constant of x's dtype where x's inner dims are known."""
    s = static_shape(x)
    if s is None or None in s[-rank:]:
        raise NotImplementedError(f"the gradient of a {rank}-D FFT needs {x.name!r}'s inner dims known while "
                                  f"building, got {x.shape}")
    return convert_to_tensor(np.array(np.prod(s[-rank:]), dtype=x.dtype))


def _checked(x, rank, what, kinds, error=TypeError):
    """x as a Tensor of `kinds` and rank >= rank; TF1's rfft and irfft check the dtype in Python (ValueError), fft and
    ifft in the op's type list (TypeError)."""
    x = convert_to_tensor(x)
    if x.dtype.kind not in kinds:
        wanted = "complex64 or complex128" if kinds == "c" else "float32 or float64"
        raise error(f"{what} needs a {wanted} input, got {x.name!r} of dtype {x.dtype.name}")
    if x.ndim is not None and x.ndim < rank:
        raise ValueError(f"{what} needs a tensor of rank >= {rank}, got {x.name!r} of shape {x.shape}")
    return x


def _complex_builder(op_type, rank, public_name, doc):
    def build(input, name=None):  # noqa: A002 - TF1's name
        return apply_op(op_type, [_checked(input, rank, public_name, "c")], name=name or op_type)
    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = doc
    return build


def _fft_length(x, fft_length, rank, what, half):
    if fft_length is None:
        s = static_shape(x)
        if s is None or None in s[-rank:]:
            raise NotImplementedError(f"{what} needs fft_length, or {x.name!r}'s inner dims known while building")
        dims = list(s[-rank:])
        if half:  # irfft's default: the signal whose half spectrum x is
            dims[-1] = 2 * (dims[-1] - 1)
        fft_length = dims
    n = convert_to_tensor(fft_length, dtype=dtypes.int32)
    if n.ndim is not None and (n.ndim != 1 or n.shape[0] not in (None, rank)):
        raise ValueError(f"{what}: fft_length must be a vector of {rank} ints, got {fft_length!r}")
    return n


def _real_builder(op_type, rank, public_name, doc):
    def build(input_tensor, fft_length=None, name=None):
        x = _checked(input_tensor, rank, public_name, "f", ValueError)
        n = _fft_length(x, fft_length, rank, public_name, False)
        return apply_op(op_type, [x, n], name=name or op_type, Tcomplex=COMPLEX_OF[x.dtype])
    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = doc
    return build


def _inverse_real_builder(op_type, rank, public_name, doc):
    def build(input_tensor, fft_length=None, name=None):
        z = _checked(input_tensor, rank, public_name, "c", ValueError)
        n = _fft_length(z, fft_length, rank, public_name, True)
        return apply_op(op_type, [z, n], name=name or op_type, Treal=REAL_OF[z.dtype])
    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = doc
    return build


fft = _complex_builder("FFT", 1, "fft", "The discrete Fourier transform over the innermost dim.")
ifft = _complex_builder("IFFT", 1, "ifft", "The inverse discrete Fourier transform over the innermost dim.")
fft2d = _complex_builder("FFT2D", 2, "fft2d", "The 2-D discrete Fourier transform over the innermost 2 dims.")
ifft2d = _complex_builder("IFFT2D", 2, "ifft2d", "The inverse 2-D Fourier transform over the innermost 2 dims.")
fft3d = _complex_builder("FFT3D", 3, "fft3d", "The 3-D discrete Fourier transform over the innermost 3 dims.")
ifft3d = _complex_builder("IFFT3D", 3, "ifft3d", "The inverse 3-D Fourier transform over the innermost 3 dims.")
rfft = _real_builder("RFFT", 1, "rfft", "The Fourier transform of a real signal: its fft_length // 2 + 1 "
                     "non-negative frequencies.")
rfft2d = _real_builder("RFFT2D", 2, "rfft2d", "The 2-D Fourier transform of a real signal (half the last dim).")
rfft3d = _real_builder("RFFT3D", 3, "rfft3d", "The 3-D Fourier transform of a real signal (half the last dim).")
irfft = _inverse_real_builder("IRFFT", 1, "irfft", "The real signal of length fft_length whose non-negative "
                              "frequencies are the input.")
irfft2d = _inverse_real_builder("IRFFT2D", 2, "irfft2d", "The real 2-D signal whose half spectrum is the input.")
irfft3d = _inverse_real_builder("IRFFT3D", 3, "irfft3d", "The real 3-D signal whose half spectrum is the input.")
