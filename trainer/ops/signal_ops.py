"""tf.signal beyond the transforms: framing and overlap-add, the windows, the short-time Fourier transform and its
inverse, the discrete cosine transforms, fftshift, and the mel filterbank and MFCCs, built as TF1 builds them so
their gradients flow through gather, matmul and rfft."""
import math

import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, register
from .array_ops import reshape
from .core_ops import constant, convert_to_tensor
from .gather_ops import gather
from .index_ops import roll
from .math_ops import matmul
from .pad_ops import pad
from .spectral_ops import irfft, rfft
from .tensor_util import constant_value, static_int, static_shape

MEL_BREAK_HZ, MEL_HIGH_Q = 700.0, 1127.0  # the HTK mel scale TF1 uses: 1127 ln(1 + f / 700)


def _length(x, axis, what):
    s = static_shape(x)
    if s is None or s[axis] is None:
        raise NotImplementedError(f"{what} needs {x.name!r}'s size along axis {axis} known while building, got "
                                  f"{x.shape}")
    return s[axis]


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Overlapping frames of `signal` along `axis`: [..., frames, frame_length, ...], one every frame_step samples
    (the end padded with pad_value to a whole last frame when pad_end)."""
    with name_scope(name or "frame"):
        x = convert_to_tensor(signal)
        if x.ndim is None or x.ndim == 0:
            raise ValueError(f"frame needs a signal of known rank >= 1, got {x.name!r} of shape {x.shape}")
        axis = int(axis) % x.ndim
        length = static_int(frame_length, "frame frame_length")
        step = static_int(frame_step, "frame frame_step")
        size = _length(x, axis, "frame")
        if pad_end:
            frames = -(-size // step)
            extra = max(0, (frames - 1) * step + length - size)
            if extra:
                widths = [[0, 0]] * x.ndim
                widths[axis] = [0, extra]
                x = pad(x, widths, constant_values=pad_value)
        else:
            frames = max(0, 1 + (size - length) // step) if size >= length else 0
        index = (np.arange(frames)[:, None] * step + np.arange(length)[None, :]).astype(np.int32)
        return gather(x, index, axis=axis)


def _overlap_add(frames, frame_step):
    count, length = frames.shape[-2:]
    out = np.zeros(frames.shape[:-2] + ((count - 1) * frame_step + length if count else 0,), frames.dtype)
    for i in range(count):
        out[..., i * frame_step:i * frame_step + length] += frames[..., i, :]
    return out


def _overlap_add_infer(x, frame_step):
    s = static_shape(x)
    if s is None or None in s[-2:]:
        return [(None if s is None else s[:-2] + (None,), x.dtype)]
    count, length = s[-2:]
    return [(s[:-2] + ((count - 1) * frame_step + length if count else 0,), x.dtype)]


register("OverlapAndAdd", kernel=host_kernel(_overlap_add), infer=_overlap_add_infer, fresh=True,
         grad=lambda op, g: [frame(g, static_shape(op.inputs[0])[-1], op.attrs["frame_step"])])


def overlap_and_add(signal, frame_step, name=None):
    """Frames [..., frames, frame_length] summed back into one signal, frame i starting at i * frame_step."""
    x = convert_to_tensor(signal)
    if x.ndim is not None and x.ndim < 2:
        raise ValueError(f"overlap_and_add needs a tensor of rank >= 2, got {x.name!r} of shape {x.shape}")
    _length(x, -1, "overlap_and_add")
    return apply_op("OverlapAndAdd", [x], name=name or "overlap_and_add",
                    frame_step=static_int(frame_step, "overlap_and_add frame_step"))


def _raised_cosine(window_length, periodic, dtype, a, b, what):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"{what}: dtype must be floating point, got {dtype.name}")
    n = static_int(window_length, f"{what} window_length")
    if n == 1:
        return constant(np.ones(1, dtype), name=what)
    even = 1 - n % 2
    count = np.arange(n, dtype=dtype)
    denominator = np.asarray(n + int(bool(periodic)) * even - 1, dtype)
    window = np.asarray(a, dtype) - np.asarray(b, dtype) * np.cos(np.asarray(2 * np.pi, dtype) * count / denominator)
    return constant(window.astype(dtype), name=what)


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """The Hann window 0.5 - 0.5 cos(2 pi n / N) (N = length when periodic and even, else length - 1)."""
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5, name or "hann_window")


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """The Hamming window 0.54 - 0.46 cos(2 pi n / N)."""
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46, name or "hamming_window")


def _window_length(window_length, dtype, what):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"{what}: dtype must be floating point, got {dtype.name}")
    return static_int(window_length, f"{what} window_length"), dtype


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser window I0(beta sqrt(1 - (2n / (N - 1) - 1) ** 2)) / I0(beta)."""
    n, dtype = _window_length(window_length, dtype, "kaiser_window")
    if n == 1:
        return constant(np.ones(1, dtype), name=name or "kaiser_window")
    half = np.float32((n - 1) / 2.0)
    arg = np.arange(-half, half + np.float32(0.1), dtype=np.float32).astype(np.float64)
    num = beta * np.sqrt(np.maximum(0.0, 1.0 - np.square(arg / np.float64(half))))
    return constant((np.i0(num) / np.i0(np.float64(beta))).astype(dtype), name=name or "kaiser_window")


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser-Bessel-derived window (for the MDCT): square roots of the Kaiser window's normalized running
    sums, mirrored."""
    n, dtype = _window_length(window_length, dtype, "kaiser_bessel_derived_window")
    kaiser = constant_value(kaiser_window(n // 2 + 1, beta, dtype=dtype)).astype(np.float64)
    sums = np.cumsum(kaiser)
    half = np.sqrt(sums[:-1] / sums[-1])
    return constant(np.concatenate([half, half[::-1]]).astype(dtype), name=name or "kaiser_bessel_derived_window")


def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    """The Vorbis power-complementary window sin(pi / 2 sin(pi (n + 0.5) / N) ** 2)."""
    n, dtype = _window_length(window_length, dtype, "vorbis_window")
    arg = np.arange(n, dtype=np.float64)
    return constant(np.sin(np.pi / 2 * np.square(np.sin(np.pi / n * (arg + 0.5)))).astype(dtype),
                    name=name or "vorbis_window")


def _fft_length(frame_length):
    return 2 ** int(math.ceil(math.log2(frame_length)))


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window, pad_end=False, name=None):
    """The short-time Fourier transform: rfft of each windowed frame, [..., frames, fft_length // 2 + 1]."""
    with name_scope(name or "stft"):
        x = convert_to_tensor(signals)
        if x.dtype.kind != "f":
            raise ValueError(f"stft needs a floating-point signal, got {x.name!r} of dtype {x.dtype.name}")
        length = static_int(frame_length, "stft frame_length")
        fft_length = _fft_length(length) if fft_length is None else static_int(fft_length, "stft fft_length")
        framed = frame(x, length, frame_step, pad_end=pad_end)
        if window_fn is not None:
            framed = framed * window_fn(length, dtype=framed.dtype)
        return rfft(framed, [fft_length])


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """The window that makes inverse_stft undo stft with forward_window_fn: the forward window divided by the sum
    of its overlapping squares."""
    step = static_int(frame_step, "inverse_stft_window_fn frame_step")

    def window(frame_length, dtype):
        forward = constant_value(forward_window_fn(frame_length, dtype=dtype))
        overlaps = -(-frame_length // step)
        squares = np.pad(np.square(forward), (0, overlaps * step - frame_length)).reshape(overlaps, step)
        denominator = np.tile(squares.sum(0, keepdims=True), (overlaps, 1)).reshape(-1)[:frame_length]
        return constant((forward / denominator).astype(dtypes.as_dtype(dtype)), name=name or "inverse_stft_window")
    return window


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window, name=None):
    """A signal from its short-time Fourier transform: irfft of each frame, windowed, overlapped and added."""
    with name_scope(name or "inverse_stft"):
        z = convert_to_tensor(stfts)
        if z.dtype.kind != "c":
            raise ValueError(f"inverse_stft needs a complex stft, got {z.name!r} of dtype {z.dtype.name}")
        length = static_int(frame_length, "inverse_stft frame_length")
        fft_length = _fft_length(length) if fft_length is None else static_int(fft_length, "inverse_stft fft_length")
        frames = irfft(z, [fft_length])[..., :length]
        if fft_length < length:
            frames = pad(frames, [[0, 0]] * (frames.ndim - 1) + [[0, length - fft_length]])
        if window_fn is not None:
            frames = frames * window_fn(length, dtype=frames.dtype)
        return overlap_and_add(frames, frame_step)


def _dct_matrix(n, kind, norm, dtype):
    """M with dct(x) = x @ M for signals of length n (TF1's unnormalized or orthonormal types 1 to 4)."""
    k, j = np.arange(n)[None, :], np.arange(n)[:, None]  # output index k, input index j
    if kind == 1:
        m = 2.0 * np.cos(np.pi * j * k / (n - 1))
        m[0, :], m[-1, :] = 1.0, (-1.0) ** np.arange(n)
    elif kind == 2:
        m = 2.0 * np.cos(np.pi * k * (2 * j + 1) / (2 * n))
        if norm == "ortho":
            m = m * np.where(k == 0, 0.5 / np.sqrt(n), 0.5 * np.sqrt(2.0 / n))
    elif kind == 3:
        m = 2.0 * np.cos(np.pi * j * (2 * k + 1) / (2 * n))
        m[0, :] = 1.0
        if norm == "ortho":
            m = m * np.where(j == 0, 1.0 / np.sqrt(n), 0.5 * np.sqrt(2.0 / n))
    else:
        m = 2.0 * np.cos(np.pi * (2 * j + 1) * (2 * k + 1) / (4 * n))
        if norm == "ortho":
            m = m * np.sqrt(0.5 / n)
    return m.astype(dtype)


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TF1's names
    """The discrete cosine transform of type 1, 2, 3 or 4 along the last axis (norm None or "ortho"); n crops or
    zero-pads the signal first."""
    if type not in (1, 2, 3, 4):
        raise ValueError(f"Types 1, 2, 3 and 4 are supported, got {type!r}")
    if axis != -1:
        raise NotImplementedError(f"axis must be -1, got {axis!r}")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm!r}")
    if type == 1 and norm == "ortho":
        raise ValueError("Normalization is not supported for the Type-I DCT.")
    with name_scope(name or "dct"):
        x = convert_to_tensor(input)
        if x.dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError(f"dct needs a float32 or float64 input, got {x.name!r} of dtype {x.dtype.name}")
        if n is not None:
            n = int(n)
            if n < 1:
                raise ValueError(f"n should be a positive integer or None, got {n!r}")
            size = _length(x, -1, "dct")
            x = x[..., :n] if n <= size else pad(x, [[0, 0]] * (x.ndim - 1) + [[0, n - size]])
        size = _length(x, -1, "dct")
        if type == 1 and size < 2:
            raise ValueError(f"The Type-I DCT needs at least 2 samples along the axis, got {size}")
        return matmul_last(x, _dct_matrix(size, type, norm, x.dtype))


def matmul_last(x, m):
    """x's last axis times the matrix m, for x of any rank >= 1."""
    s = static_shape(x)
    flat = reshape(x, [-1, s[-1]])
    return reshape(matmul(flat, constant(m)), [-1 if d is None else d for d in s[:-1]] + [m.shape[1]])


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TF1's names
    """The inverse DCT: the DCT of the inverse type (2 and 3 swap); exact with norm "ortho", scaled by 2N (2(N-1)
    for type 1) without."""
    inverse = {1: 1, 2: 3, 3: 2, 4: 4}
    if type not in inverse:
        raise ValueError(f"Types 1, 2, 3 and 4 are supported, got {type!r}")
    return dct(input, type=inverse[type], n=n, axis=axis, norm=norm, name=name or "idct")


def _shift_args(x, axes, what):
    x = convert_to_tensor(x)
    s = static_shape(x)
    if s is None:
        raise NotImplementedError(f"{what} needs {x.name!r}'s rank known while building")
    axes = list(range(len(s))) if axes is None else [int(a) for a in np.ravel(axes)]
    sizes = [_length(x, a, what) for a in axes]
    return x, axes, sizes


def fftshift(x, axes=None, name=None):
    """The zero frequency moved to the middle: x rolled by half its size along `axes` (all when None)."""
    with name_scope(name or "fftshift"):
        x, axes, sizes = _shift_args(x, axes, "fftshift")
        return roll(x, [n // 2 for n in sizes], axes)


def ifftshift(x, axes=None, name=None):
    """fftshift undone: x rolled back by half its size along `axes`."""
    with name_scope(name or "ifftshift"):
        x, axes, sizes = _shift_args(x, axes, "ifftshift")
        return roll(x, [-(n // 2) for n in sizes], axes)


def _hertz_to_mel(frequencies):
    return MEL_HIGH_Q * np.log(1.0 + frequencies / MEL_BREAK_HZ)


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000, lower_edge_hertz=125.0,
                                upper_edge_hertz=3800.0, dtype=dtypes.float32, name=None):
    """[num_spectrogram_bins, num_mel_bins]: triangular mel filters over a linear spectrogram's bins (the DC bin
    gets no weight), as TF1 builds them."""
    dtype = dtypes.as_dtype(dtype)
    if num_mel_bins <= 0 or lower_edge_hertz < 0 or lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"linear_to_mel_weight_matrix: need num_mel_bins > 0 and 0 <= lower_edge_hertz < "
                         f"upper_edge_hertz, got {num_mel_bins!r}, {lower_edge_hertz!r}, {upper_edge_hertz!r}")
    if upper_edge_hertz > sample_rate / 2:
        raise ValueError(f"upper_edge_hertz must not be larger than the Nyquist frequency ({sample_rate / 2}), got "
                         f"{upper_edge_hertz!r}")
    f = dtype.as_numpy_dtype
    linear = np.linspace(f(0), f(sample_rate / 2.0), num_spectrogram_bins, dtype=f)[1:]
    bins_mel = _hertz_to_mel(linear).astype(f)[:, None]
    edges = np.linspace(_hertz_to_mel(f(lower_edge_hertz)), _hertz_to_mel(f(upper_edge_hertz)), num_mel_bins + 2,
                        dtype=f)
    lower, center, upper = edges[:-2][None, :], edges[1:-1][None, :], edges[2:][None, :]
    weights = np.maximum(f(0), np.minimum((bins_mel - lower) / (center - lower), (upper - bins_mel) / (upper - center)))
    return constant(np.pad(weights, [[1, 0], [0, 0]]).astype(f), name=name or "linear_to_mel_weight_matrix")


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """Mel-frequency cepstral coefficients: the DCT-II of log-mel spectrograms, scaled by 1 / sqrt(2 * bins)."""
    with name_scope(name or "mfccs_from_log_mel_spectrograms"):
        x = convert_to_tensor(log_mel_spectrograms)
        bins = _length(x, -1, "mfccs_from_log_mel_spectrograms")
        return dct(x, type=2) * np.asarray(1.0 / math.sqrt(bins * 2.0), x.dtype)
