"""keras.preprocessing.sequence.pad_sequences with Keras' semantics."""
import numpy as np

from ...unsupported import missing_names


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """A (len(sequences), maxlen) array: each sequence cut to maxlen (keeping its end for truncating='pre') and
    filled with `value` before it ('pre', the default) or after it ('post'); maxlen defaults to the longest."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape = [], ()
    for x in sequences:
        try:
            lengths.append(len(x))
        except TypeError:
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {x!r}") from None
        if len(x) and not sample_shape:
            sample_shape = np.asarray(x).shape[1:]
    maxlen = int(np.max(lengths)) if maxlen is None and lengths else (maxlen or 0)
    is_text = np.issubdtype(dtype, np.str_) or np.issubdtype(dtype, np.unicode_) if isinstance(dtype, type) else \
        str(dtype) in ("str", "object")
    if isinstance(value, str) and dtype != object and not is_text:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\nYou should set "
                         "`dtype=object` for variable length strings.")
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s):
            continue
        if truncating == "pre":
            trunc = s[-maxlen:] if maxlen else s[:0]
        elif truncating == "post":
            trunc = s[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        trunc = np.asarray(trunc, dtype=dtype)
        if trunc.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {trunc.shape[1:]} of sequence at position {i} is different from "
                             f"expected shape {sample_shape}")
        if padding == "post":
            out[i, :len(trunc)] = trunc
        elif padding == "pre":
            out[i, maxlen - len(trunc):] = trunc
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out


__getattr__ = missing_names(__name__, have="of tf.keras.preprocessing.sequence only pad_sequences is here")
