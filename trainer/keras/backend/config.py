"""Keras' settings: the default float type, the fuzz factor epsilon and the image data format."""

_CONFIG = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}


def backend():
    """The backend's name: 'tensorflow', as tf.keras answers."""
    return "tensorflow"


def floatx():
    """The default float type as a string ('float32')."""
    return _CONFIG["floatx"]


def set_floatx(value):
    """Set the default float type ('float16', 'float32' or 'float64')."""
    if value not in ("float16", "float32", "float64"):
        raise ValueError(f"Unknown floatx type: {value!r}; use 'float16', 'float32' or 'float64'")
    _CONFIG["floatx"] = str(value)


def epsilon():
    """The fuzz factor Keras adds to avoid dividing by zero (1e-7)."""
    return _CONFIG["epsilon"]


def set_epsilon(value):
    """Set the fuzz factor."""
    _CONFIG["epsilon"] = float(value)


def image_data_format():
    """'channels_last' (NHWC), Keras' default."""
    return _CONFIG["image_data_format"]


def set_image_data_format(data_format):
    """Set the image data format; ringflow's convolutions run channels_last only."""
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"Unknown data_format: {data_format!r}; use 'channels_last' or 'channels_first'")
    _CONFIG["image_data_format"] = str(data_format)
