"""The array kernels of Conv2D and its gradients: im2col gathered in the filter's (kh, kw, c) order, then a GEMM.

NHWC images, HWIO filters, dilation already folded into the filter (conv_ops.dilate_filter). The columns of a
whole batch are large (LeNet's second layer: 40 MB), so on the host they are gathered and multiplied a few
images at a time into one reused buffer that stays in cache between its gather and its GEMM; the zero padding too
is written slice by slice, into a small buffer of its own, never as a padded copy of the batch.
The input gradient of a stride-1 convolution whose output is as large as its input (SAME) is itself a
stride-1 convolution (of the output gradient, padded by the filter size less the forward padding, with the
filter flipped and its in/out channels swapped), so it is one more im2col and GEMM; strided ones, and those
whose output is smaller (VALID), take one GEMM and a col2im of one strided add per filter tap: the
convolution would gather and multiply the zero padding too (a 7x7 VALID "dense" layer on 7x7 images: 49x
the forward's work).
On the host, a stride-1 convolution of images of more than TAP_MAJOR_CHANNELS channels gathers row windows
instead (_row_window_slices): each output pixel's (kw, C) run of one input row, kh times fewer bytes than its
im2col row, and one GEMM per filter row over a slice of images laid out row-major by height, so that the image
rows filter row i reads are one contiguous block; the zero padding above and below is never multiplied. Where
OpenBLAS's unpacked sgemm_direct is faster (gemm.direct_product: AVX-512 kernels, float32, one thread, N = 32 or 64)
the row windows' products go through it, the filter gradient's on windows gathered transposed.
On CuPy arrays the three kernels go through cuDNN (cudnn_conv.py) where it is installed, else take the same
im2col path with the whole batch in one GEMM.
"""
import numpy as np

from . import cudnn_conv, gemm
from .cuda_kernels import on_cupy
from ...framework.registry import get_array_module

# A slice of columns this size stays in one core's L2 (1 MiB on the EPYC measured) between its gather and its GEMM,
# whatever other processes do to the shared L3. One BLAS thread, another process loading the other core, slices of
# 0.5-4 MiB: 1 MiB was the fastest or within 3% of it for every kernel of LeNet and the CNN, and 4 MiB 5-20% slower
# (LeNet's conv2 filter gradient 7.85 against 8.85 ms; with the L3 to itself, 2-8 MiB were within 5%); gathering
# the whole batch first makes LeNet's convolutions 1.3-1.7x slower. Devices take the whole batch in one GEMM.
CHUNK_BYTES = 1 << 20
TAP_MAJOR_CHANNELS = 4  # images of at most this many channels are gathered tap by tap (_tap_major_slices)


def out_size(size, k, stride, padding):
    """Output length and (before, after) padding of one spatial dim, as TF computes them."""
    if padding == "VALID":
        return (size - k) // stride + 1, (0, 0)
    out = -(-size // stride)
    total = max((out - 1) * stride + k - size, 0)
    return out, (total // 2, total - total // 2)


def _windows(xpad, kh, kw, strides, ho, wo):
    """The (N, Ho, Wo, kh, kw*C) view of contiguous padded images: row i of each window's taps, (kw, c) in order."""
    n, _, _, c = xpad.shape
    sn, sh, sw, sc = xpad.strides
    return get_array_module(xpad).lib.stride_tricks.as_strided(
        xpad, (n, ho, wo, kh, kw * c), (sn, sh * strides[0], sw * strides[1], sh, sc))


def _image_chunks(n, cols_per_image, itemsize, xp):
    """(start, stop) image ranges of about CHUNK_BYTES of columns (one range for an empty batch)."""
    step = max(1, n if xp is not np else CHUNK_BYTES // max(cols_per_image * itemsize, 1))
    return [(s, min(s + step, n)) for s in range(0, max(n, 1), step)]


def _column_slices(x, pads, kh, kw, strides, ho, wo):
    """(start, stop, im2col matrix) for each slice of the batch of images `x`, padded by `pads` ((before, after) of
    height and width): each slice is padded into one reused buffer and its columns gathered into another, so both
    stay in cache (a padded copy of the whole batch cost a pass over memory: 1.5 ms of LeNet's step)."""
    xp = get_array_module(x)
    n, h, w, c = x.shape
    (ph, pw), k = pads, kh * kw * c
    if ho <= 0 or wo <= 0:
        raise ValueError(f"conv2d: a {kh}x{kw} filter does not fit in the images of shape {x.shape} padded by "
                         f"{ph} and {pw}")
    chunks = _image_chunks(n, ho * wo * k, x.itemsize, xp)
    images, place = _slice_source(x, ph, pw, chunks[0][1] - chunks[0][0])
    if xp is np and c <= TAP_MAJOR_CHANNELS:
        yield from _tap_major_slices(images, place, chunks, (kh, kw), strides, ho, wo)
        return
    windows = _windows(images, kh, kw, strides, ho, wo)  # one view for every slice: as_strided costs microseconds
    cols = xp.empty((chunks[0][1] - chunks[0][0], ho, wo, kh, kw * c), dtype=x.dtype)
    for start, stop in chunks:
        at = place(start, stop)
        part = cols[:stop - start]
        part[...] = windows[at:at + stop - start]
        yield start, stop, part.reshape(-1, k)


def _slice_source(x, ph, pw, most):
    """(images, place): padded images, and place(start, stop), the index in them where images start:stop of `x`
    begin. Without padding, `images` is x itself (contiguous); with it, a buffer of `most` images whose borders are
    zeroed once, into which place copies each slice of the batch in turn."""
    xp = get_array_module(x)
    if ph == (0, 0) and pw == (0, 0):
        return xp.ascontiguousarray(x), lambda start, stop: start
    n, h, w, c = x.shape
    buffer = xp.zeros((most, h + sum(ph), w + sum(pw), c), dtype=x.dtype)
    inside = buffer[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w]

    def place(start, stop):
        inside[:stop - start] = x[start:stop]
        return 0
    return buffer, place


def _tap_major_slices(images, place, chunks, taps, strides, ho, wo):
    """_column_slices for images of few channels (a first layer's gray or RGB): a window's row is then only kw*C
    values, which the gather above copies a few at a time. Here each filter tap's (Ho, Wo, C) plane is copied whole
    into row block `tap` of a (kh*kw*C, pixels) buffer, and its transpose is the im2col matrix: LeNet's 5x5 first
    layer gathers 3.6x faster, and BLAS takes the transpose as it is (forward 1.6x, filter gradient 1.9x)."""
    (kh, kw), c, sh, sw = taps, images.shape[3], strides[0], strides[1]
    k = kh * kw * c
    buffer = np.empty(k * (chunks[0][1] - chunks[0][0]) * ho * wo, dtype=images.dtype)
    for start, stop in chunks:
        at = place(start, stop)
        cols_t = buffer[:k * (stop - start) * ho * wo].reshape(kh, kw, c, stop - start, ho, wo)
        for i in range(kh):
            for j in range(kw):
                plane = images[at:at + stop - start, i:i + sh * (ho - 1) + 1:sh, j:j + sw * (wo - 1) + 1:sw]
                cols_t[i, j] = plane.transpose(3, 0, 1, 2)
        yield start, stop, cols_t.reshape(k, -1).T


def _by_rows(x, strides):
    """Whether the convolution of `x` takes the row-window path (module docstring): host float arrays of more
    than TAP_MAJOR_CHANNELS channels, stride 1."""
    return (type(x) is np.ndarray and x.dtype.char in "fd" and x.shape[3] > TAP_MAJOR_CHANNELS
            and tuple(strides) == (1, 1))


def _row_chunks(x, pads, kh, kw, ho, wo):
    """The image ranges of _row_window_slices and _row_window_columns, the same for both."""
    if ho <= 0 or wo <= 0:
        raise ValueError(f"conv2d: a {kh}x{kw} filter does not fit in the images of shape {x.shape} padded by "
                         f"{pads[0]} and {pads[1]}")
    return _image_chunks(x.shape[0], x.shape[1] * wo * kw * x.shape[3], x.itemsize, np)


def _row_window_slices(x, pads, kh, kw, ho, wo):
    """(start, stop, rows) for each slice of the batch `x` of a stride-1 convolution: rows[(r, n, j)] is the
    (kw, C) run that output column j reads from input row r of image start + n, a (H*images*Wo, kw*C) matrix.
    The slice is copied height-major into a buffer padded in width only, then its windows into another."""
    n, h, w, c = x.shape
    (_, _), (pl, pr) = pads
    k = kw * c
    chunks = _row_chunks(x, pads, kh, kw, ho, wo)
    most = chunks[0][1] - chunks[0][0]
    padded = np.zeros((h, most, w + pl + pr, c), dtype=x.dtype)  # the width's borders stay zero
    inside = padded[:, :, pl:pl + w]
    windows = np.lib.stride_tricks.as_strided(padded, (h, most, wo, k), padded.strides)
    buffer = np.empty(h * most * wo * k, dtype=x.dtype)
    for start, stop in chunks:
        m = stop - start
        inside[:, :m] = x[start:stop].transpose(1, 0, 2, 3)
        rows = buffer[:h * m * wo * k].reshape(h, m, wo, k)
        rows[...] = windows[:, :m]
        yield start, stop, rows.reshape(-1, k)


def _row_window_columns(x, pads, kh, kw, ho, wo):
    """(start, stop, cols) for each slice of _row_window_slices, transposed for sgemm_direct, which takes no
    transposed operand: cols[(j', c), (r, j, n)] is what output column j of image start + n reads at filter column j'
    and channel c from input row r, a (kw*C, H*Wo*images) matrix. Pixels run height-major again, so the input rows a
    filter row reads are one block of columns, and images innermost, so each (row, channel) of a filter column's
    window is one run of Wo*images values (columns innermost: runs of Wo, twice the gather's time). The slice is
    copied channel-major into a buffer padded in width, then its windows into another."""
    _, h, w, c = x.shape
    (_, _), (pl, pr) = pads
    chunks = _row_chunks(x, pads, kh, kw, ho, wo)
    most, wp = chunks[0][1] - chunks[0][0], w + pl + pr
    padded, buffer = np.empty(c * h * wp * most, dtype=x.dtype), np.empty(kw * c * h * wo * most, dtype=x.dtype)
    for start, stop in chunks:
        m = stop - start
        images = padded[:c * h * wp * m].reshape(c, h, wp, m)
        images[:, :, :pl] = 0
        images[:, :, pl + w:] = 0
        images[:, :, pl:pl + w] = x[start:stop].transpose(3, 1, 2, 0)
        sc, sh, sw, sn = images.strides
        cols = buffer[:kw * c * h * wo * m].reshape(kw, c, h, wo, m)
        cols[...] = np.lib.stride_tricks.as_strided(images, cols.shape, (sw, sc, sh, sw, sn))
        yield start, stop, cols.reshape(kw * c, -1)


def _tap_rows(h, ho, top, kh):
    """(i, first output row, end output row, first input row) of each filter row i that reads some input row: output
    row r reads input row r + i - top, and rows outside the image are the padding's zeros."""
    taps = [(i, max(0, top - i), min(ho, h + top - i)) for i in range(kh)]
    return [(i, lo, hi, lo + i - top) for i, lo, hi in taps if lo < hi]


def _conv_rows(x, pads, w3, kw, ho, wo):
    """_conv_padded by row windows: w3 is the filter as (kh, kw*C, O). Where sgemm_direct's box holds
    (gemm.direct_product) each filter row's product goes through it, the taps after the first into a product buffer
    and an add pass, since it has no beta: it packs neither operand, and with the adds LeNet's second layer is 7 %
    faster both ways than on the packed GEMM adding in place."""
    n, h, _, _ = x.shape
    kh, k, o = w3.shape
    taps = _tap_rows(h, ho, pads[0][0], kh)
    first = next((t for t in taps if t[1] == 0 and t[2] == ho), None)  # writes every row: no zeroing pass
    taps.sort(key=lambda t: t is not first)
    out = np.empty((n, ho, wo, o), dtype=x.dtype)
    blas = w3.flags.c_contiguous and w3.dtype == x.dtype
    most = _row_chunks(x, pads, kh, kw, ho, wo)[0]
    mul = gemm.direct_product(x.dtype, ho * (most[1] - most[0]) * wo, o, k) if blas else None
    # elsewhere the other taps add their products in the GEMM (beta = 1) rather than through a product buffer and an
    # add pass over the slice: LeNet's second layer 6 % faster. The same values to the bit where a tap's k = kw*C fits
    # one of BLAS's k blocks (LeNet's 160 and 320 in float32), else within rounding: BLAS adds each block's sum in turn
    add = gemm.product_adder(x.dtype) if blas and mul is None else None
    acc = tmp = None
    item = x.itemsize
    for start, stop, rows in _row_window_slices(x, pads, kh, kw, ho, wo):
        span = (stop - start) * wo  # matrix rows per image row
        if acc is None:
            acc = np.empty((ho * span, o), dtype=x.dtype)
            tmp = np.empty((ho * span, o), dtype=x.dtype) if add is None else None
        part = acc[:ho * span]
        if first is None:
            part[...] = 0
        at = rows.ctypes.data, w3.ctypes.data, part.ctypes.data, 0 if tmp is None else tmp.ctypes.data
        for tap in taps:
            i, lo, hi, r = tap
            a_at, w_at, m = at[0] + r * span * k * item, at[1] + i * k * o * item, (hi - lo) * span
            if mul is not None:
                mul(m, k, a_at, k, w_at, o, at[2] if tap is first else at[3], o)
            elif tap is first:
                np.dot(rows[r * span:(r + ho) * span], w3[i], out=part)
            elif add is not None:
                add(m, o, k, a_at, w_at, at[2] + lo * span * o * item)
            else:
                np.dot(rows[r * span:r * span + m], w3[i], out=tmp[:m])
            if tap is not first and add is None:
                part[lo * span:hi * span] += tmp[:m]
        out[start:stop] = part.reshape(ho, stop - start, wo, o).transpose(1, 0, 2, 3)
    return out


def _filter_grad_rows(x, g, pads, kh, kw):
    """conv2d_filter_grad by row windows, as (kh, kw*C, O): filter row i's rows times the output rows reading them.
    Where sgemm_direct's box holds (gemm.direct_product) the rows are gathered transposed (_row_window_columns), each
    product's first operand row-major: LeNet's second layer's products 22 % faster, for 30 % more gathering time."""
    n, h, _, c = x.shape
    _, ho, wo, o = g.shape
    taps = _tap_rows(h, ho, pads[0][0], kh)
    grad = np.zeros((kh, kw * c, o), dtype=g.dtype)
    term, heights = np.empty((kw * c, o), dtype=g.dtype), None
    most = _row_chunks(x, pads, kh, kw, ho, wo)[0]
    mul = gemm.direct_product(g.dtype, kw * c, o, ho * (most[1] - most[0]) * wo)
    for start, stop, rows in (_row_window_slices if mul is None else _row_window_columns)(x, pads, kh, kw, ho, wo):
        span = (stop - start) * wo
        if heights is None:
            heights = np.empty(ho * span * o, dtype=g.dtype)
        if mul is None:
            gh = heights[:ho * span * o].reshape(ho, stop - start, wo, o)
            gh[...] = g[start:stop].transpose(1, 0, 2, 3)
        else:  # the columns' pixel order, images innermost
            gh = heights[:ho * span * o].reshape(ho, wo, stop - start, o)
            gh[...] = g[start:stop].transpose(1, 2, 0, 3)
        gm = gh.reshape(-1, o)
        at = None if mul is None else (rows.ctypes.data, gm.ctypes.data, term.ctypes.data)
        for i, lo, hi, r in taps:
            if at is None:
                np.dot(rows[r * span:(r + hi - lo) * span].T, gm[lo * span:hi * span], out=term)
            else:
                mul(kw * c, (hi - lo) * span, at[0] + r * span * rows.itemsize, rows.shape[1],
                    at[1] + lo * span * o * gm.itemsize, o, at[2], o)
            grad[i] += term
    return grad


def _conv_padded(x, pads, w2, kh, kw, strides, ho, wo):
    """(N, Ho, Wo, O): the convolution of images padded by `pads` with filters reshaped to (kh*kw*C, O)."""
    xp = get_array_module(x)
    if _by_rows(x, strides) and x.dtype == w2.dtype:
        return _conv_rows(x, pads, w2.reshape(kh, kw * x.shape[3], w2.shape[1]), kw, ho, wo)
    out = xp.empty((x.shape[0], ho, wo, w2.shape[1]), dtype=x.dtype)
    for start, stop, cols in _column_slices(x, pads, kh, kw, strides, ho, wo):
        xp.dot(cols, w2, out=out[start:stop].reshape(-1, w2.shape[1]))
    return out


def _paddings(x_shape, w_shape, strides, padding):
    """((Ho, Wo), (before h, before w), (after h, after w)) of a convolution, as TF pads it."""
    (ho, ph), (wo, pw) = (out_size(x_shape[1], w_shape[0], strides[0], padding),
                          out_size(x_shape[2], w_shape[1], strides[1], padding))
    return (ho, wo), (ph[0], pw[0]), (ph[1], pw[1])


def _cudnn_conv2d(x, w, strides, padding):
    out_hw, pre, post = _paddings(x.shape, w.shape, strides, padding)
    return cudnn_conv.conv2d(x, w, strides, pre, post, out_hw, lambda: conv2d.__wrapped__(x, w, strides, padding))


def _cudnn_input_grad(g, x_shape, w, strides, padding):
    _, pre, post = _paddings(x_shape, w.shape, strides, padding)
    return cudnn_conv.conv2d_input_grad(g, x_shape, w, strides, pre, post,
                                        lambda: conv2d_input_grad.__wrapped__(g, x_shape, w, strides, padding))


def _cudnn_filter_grad(x, g, w, strides, padding):
    _, pre, post = _paddings(x.shape, w.shape, strides, padding)
    return cudnn_conv.conv2d_filter_grad(x, g, w.shape, strides, pre, post,
                                         lambda: conv2d_filter_grad.__wrapped__(x, g, w, strides, padding))


def _pointwise_input(x, strides):
    """The pixels a 1x1 filter reads (every stride-th; no padding either way) as a (pixels, C) matrix."""
    picked = x if tuple(strides) == (1, 1) else x[:, ::strides[0], ::strides[1]]
    return picked.reshape(-1, x.shape[3]), picked.shape[:3]


@on_cupy(_cudnn_conv2d)
def conv2d(x, w, strides, padding):
    kh, kw, c, o = w.shape
    if kh == kw == 1:  # ResNet's bottlenecks: a 1x1 convolution is one GEMM on the image as it lies
        rows, nhw = _pointwise_input(x, strides)
        return get_array_module(x).dot(rows, w.reshape(c, o)).reshape(*nhw, o)
    (ho, ph), (wo, pw) = out_size(x.shape[1], kh, strides[0], padding), out_size(x.shape[2], kw, strides[1], padding)
    return _conv_padded(x, (ph, pw), w.reshape(kh * kw * c, o), kh, kw, strides, ho, wo)


@on_cupy(_cudnn_filter_grad)
def conv2d_filter_grad(x, g, w, strides, padding):
    """dL/dw: the columns of x times g, summed over slices of the batch."""
    xp = get_array_module(g)
    kh, kw, c, o = w.shape
    if kh == kw == 1:
        return xp.dot(_pointwise_input(x, strides)[0].T, g.reshape(-1, o)).reshape(w.shape)
    _, ho, wo, _ = g.shape
    ph, pw = out_size(x.shape[1], kh, strides[0], padding)[1], out_size(x.shape[2], kw, strides[1], padding)[1]
    if _by_rows(x, strides) and type(g) is np.ndarray and g.dtype == x.dtype:
        return _filter_grad_rows(x, g, (ph, pw), kh, kw).reshape(kh, kw, c, o)
    grad = mul = None
    for start, stop, cols in _column_slices(x, (ph, pw), kh, kw, strides, ho, wo):
        rows = g[start:stop].reshape(-1, o)
        if grad is None and type(g) is np.ndarray and cols.dtype == g.dtype and cols.T.flags.c_contiguous and \
                rows.flags.c_contiguous:
            # tap-major columns' transpose is row-major: sgemm_direct where its box holds (LeNet's first layer: 22 %
            # faster), asked about the first slice, the largest
            mul = gemm.direct_product(g.dtype, cols.shape[1], o, cols.shape[0])
        if mul is None:
            term = xp.dot(cols.T, rows)
        else:
            term = np.empty((cols.shape[1], o), dtype=g.dtype)
            mul(cols.shape[1], cols.shape[0], cols.T.ctypes.data, cols.shape[0], rows.ctypes.data, o, term.ctypes.data,
                o)
        grad = term if grad is None else xp.add(grad, term, out=grad)
    return grad.reshape(kh, kw, c, o)


@on_cupy(_cudnn_input_grad)
def conv2d_input_grad(g, x_shape, w, strides, padding):
    """dL/dx of an (N, H, W, C) input."""
    kh, kw, c, o = w.shape
    if kh == kw == 1:
        xp = get_array_module(g)
        rows = xp.dot(g.reshape(-1, o), w.reshape(c, o).T).reshape(*g.shape[:3], c)
        if tuple(strides) == (1, 1):
            return rows
        dx = xp.zeros(x_shape, dtype=g.dtype)
        dx[:, ::strides[0], ::strides[1]] = rows
        return dx
    _, h, wd, _ = x_shape
    (_, ph), (_, pw) = out_size(h, kh, strides[0], padding), out_size(wd, kw, strides[1], padding)
    if tuple(strides) != (1, 1) or g.shape[1] * g.shape[2] < h * wd:
        return _input_grad_col2im(g, x_shape, w, strides, ph, pw)
    xp = get_array_module(g)
    flipped = xp.ascontiguousarray(w[::-1, ::-1].transpose(0, 1, 3, 2)).reshape(kh * kw * o, c)
    pads = (kh - 1 - ph[0], kh - 1 - ph[1]), (kw - 1 - pw[0], kw - 1 - pw[1])
    return _conv_padded(g, pads, flipped, kh, kw, (1, 1), h, wd)


def _input_grad_col2im(g, x_shape, w, strides, ph, pw):
    """One GEMM per slice of the batch into a reused buffer, then one strided add per filter tap."""
    xp = get_array_module(g)
    kh, kw, c, o = w.shape
    n, ho, wo, _ = g.shape
    w_t = w.reshape(-1, o).T  # BLAS takes the transpose as a flag; a copy cost 4x the GEMM for a 3136x1024 filter
    dx = _padded_zeros(x_shape, strides, ph, pw, g.dtype, xp)
    chunks = _image_chunks(n, ho * wo * kh * kw * c, g.itemsize, xp)
    dcols = xp.empty(((chunks[0][1] - chunks[0][0]) * ho * wo, kh * kw * c), dtype=g.dtype)
    for start, stop in chunks:
        part = dcols[:(stop - start) * ho * wo]
        xp.dot(g[start:stop].reshape(-1, o), w_t, out=part)
        _add_windows(dx[start:stop], part.reshape(stop - start, ho, wo, kh, kw, c), strides)
    return xp.ascontiguousarray(dx[:, ph[0]:ph[0] + x_shape[1], pw[0]:pw[0] + x_shape[2]])


def _padded_zeros(x_shape, strides, ph, pw, dtype, xp):
    n, h, w, c = x_shape
    return xp.zeros((n, h + sum(ph) + strides[0], w + sum(pw) + strides[1], c), dtype=dtype)


def _add_windows(dx, dcols, strides):
    _, ho, wo, kh, kw, _ = dcols.shape
    for i in range(kh):
        for j in range(kw):
            dx[:, i:i + strides[0] * ho:strides[0], j:j + strides[1] * wo:strides[1]] += dcols[:, :, :, i, j]


def scatter_windows(dcols, x_shape, strides, ph, pw):
    """The adjoint of the window gather: add each (N, Ho, Wo, kh, kw, C) window value back onto x's pixels,
    one strided add per filter tap (a view of the result, unpadded)."""
    dx = _padded_zeros(x_shape, strides, ph, pw, dcols.dtype, get_array_module(dcols))
    _add_windows(dx, dcols, strides)
    return dx[:, ph[0]:ph[0] + x_shape[1], pw[0]:pw[0] + x_shape[2]]
