"""keras_preprocessing's affine transformations of one image: apply_affine_transform (rotation, shift, shear and
zoom about the centre, resampled bilinearly, scipy's order 1, with fill_mode 'nearest', 'constant', 'reflect' or
'wrap'), its random_* draws from numpy's global generator with Keras' default axes (channels first: row_axis=1,
col_axis=2, channel_axis=0), and the channel shift. Brightness goes through PIL, which ringflow does not use."""
import numpy as np

NEEDS_PIL = ("needs PIL (Pillow) to read image files, which ringflow does not use: load the images into a numpy "
             "array [N, height, width, channels] yourself and use ImageDataGenerator.flow(x, y)")


def _affine_matrix(theta, tx, ty, shear, zx, zy, rows, cols):
    """The 3x3 matrix mapping an output pixel (row, col, 1) to the input position it samples."""
    theta, shear = np.deg2rad(theta), np.deg2rad(shear)
    rotation = np.array([[np.cos(theta), -np.sin(theta), 0], [np.sin(theta), np.cos(theta), 0], [0, 0, 1]])
    shift = np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]])
    shearing = np.array([[1, -np.sin(shear), 0], [0, np.cos(shear), 0], [0, 0, 1]])
    zoom = np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]])
    o_x, o_y = rows / 2 - 0.5, cols / 2 - 0.5
    offset = np.array([[1, 0, o_x], [0, 1, o_y], [0, 0, 1]])
    reset = np.array([[1, 0, -o_x], [0, 1, -o_y], [0, 0, 1]])
    return offset @ rotation @ shift @ shearing @ zoom @ reset


def _fill_index(index, size, fill_mode):
    """Integer positions mapped into [0, size) by fill_mode, and where they fell outside (for 'constant')."""
    outside = (index < 0) | (index >= size)
    if fill_mode == "nearest" or fill_mode == "constant":
        return np.clip(index, 0, size - 1), outside
    if fill_mode == "wrap":
        return np.mod(index, size), outside
    period = np.mod(index, 2 * size)  # 'reflect': d c b a | a b c d | d c b a
    return np.where(period < size, period, 2 * size - 1 - period), outside


def apply_affine_transform(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1, row_axis=0, col_axis=1, channel_axis=2,
                           fill_mode="nearest", cval=0.0):
    """One image `x` rotated by theta degrees, shifted by (tx, ty) pixels, sheared and zoomed, about its centre."""
    if fill_mode not in ("nearest", "constant", "reflect", "wrap"):
        raise ValueError(f"fill_mode must be 'nearest', 'constant', 'reflect' or 'wrap', got {fill_mode!r}")
    image = np.moveaxis(np.asarray(x), (row_axis, col_axis, channel_axis), (0, 1, 2))
    rows, cols = image.shape[:2]
    matrix = _affine_matrix(theta, tx, ty, shear, zx, zy, rows, cols)
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    src_r = matrix[0, 0] * r + matrix[0, 1] * c + matrix[0, 2]
    src_c = matrix[1, 0] * r + matrix[1, 1] * c + matrix[1, 2]
    r0, c0 = np.floor(src_r).astype(int), np.floor(src_c).astype(int)
    fr, fc = (src_r - r0)[..., None], (src_c - c0)[..., None]
    out = np.zeros(image.shape, dtype=np.float64)
    for dr, dc, weight in ((0, 0, (1 - fr) * (1 - fc)), (0, 1, (1 - fr) * fc), (1, 0, fr * (1 - fc)), (1, 1, fr * fc)):
        rr, out_r = _fill_index(r0 + dr, rows, fill_mode)
        cc, out_c = _fill_index(c0 + dc, cols, fill_mode)
        values = image[rr, cc].astype(np.float64)
        if fill_mode == "constant":
            values = np.where((out_r | out_c)[..., None], cval, values)
        out += weight * values
    return np.moveaxis(out.astype(image.dtype if image.dtype.kind == "f" else np.float64), (0, 1, 2),
                       (row_axis, col_axis, channel_axis))


def _bilinear_only(interpolation_order):
    if interpolation_order != 1:
        raise ValueError(f"ringflow's affine transforms resample bilinearly (interpolation_order=1), got "
                         f"{interpolation_order!r}")


def random_rotation(x, rg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.,
                    interpolation_order=1):
    """x rotated by a uniform draw in [-rg, rg] degrees."""
    _bilinear_only(interpolation_order)
    theta = np.random.uniform(-rg, rg)
    return apply_affine_transform(x, theta=theta, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval)


def random_shift(x, wrg, hrg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.,
                 interpolation_order=1):
    """x shifted by uniform draws of up to hrg of its height and wrg of its width."""
    _bilinear_only(interpolation_order)
    h, w = x.shape[row_axis], x.shape[col_axis]
    tx = np.random.uniform(-hrg, hrg) * h
    ty = np.random.uniform(-wrg, wrg) * w
    return apply_affine_transform(x, tx=tx, ty=ty, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval)


def random_shear(x, intensity, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.,
                 interpolation_order=1):
    """x sheared by a uniform draw in [-intensity, intensity] degrees."""
    _bilinear_only(interpolation_order)
    shear = np.random.uniform(-intensity, intensity)
    return apply_affine_transform(x, shear=shear, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval)


def random_zoom(x, zoom_range, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.,
                interpolation_order=1):
    """x zoomed by two uniform draws (rows, columns) in zoom_range."""
    if len(zoom_range) != 2:
        raise ValueError(f"`zoom_range` should be a tuple or list of two floats. Received: {zoom_range!r}")
    _bilinear_only(interpolation_order)
    zx, zy = (1, 1) if zoom_range[0] == 1 and zoom_range[1] == 1 else np.random.uniform(zoom_range[0],
                                                                                          zoom_range[1], 2)
    return apply_affine_transform(x, zx=zx, zy=zy, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval)


def apply_channel_shift(x, intensity, channel_axis=0):
    """Every channel plus `intensity`, clipped to the image's range."""
    x = np.rollaxis(x, channel_axis, 0)
    low, high = np.min(x), np.max(x)
    x = np.stack([np.clip(channel + intensity, low, high) for channel in x], axis=0)
    return np.rollaxis(x, 0, channel_axis + 1)


def random_channel_shift(x, intensity_range, channel_axis=0):
    """apply_channel_shift by a uniform draw in [-intensity_range, intensity_range]."""
    return apply_channel_shift(x, np.random.uniform(-intensity_range, intensity_range), channel_axis=channel_axis)


def apply_brightness_shift(x, brightness):
    """Keras changes brightness with PIL's ImageEnhance: ImportError here."""
    raise ImportError(f"apply_brightness_shift {NEEDS_PIL}")


def random_brightness(x, brightness_range):
    """apply_brightness_shift by a uniform draw in brightness_range (which needs PIL)."""
    if len(brightness_range) != 2:
        raise ValueError(f"`brightness_range should be tuple or list of two floats. Received: {brightness_range!r}")
    return apply_brightness_shift(x, np.random.uniform(brightness_range[0], brightness_range[1]))
