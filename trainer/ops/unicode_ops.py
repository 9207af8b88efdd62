"""The dense unicode ops of tf.strings: unicode_transcode (string to string) and unicode_encode (code points to
strings, the innermost axis becoming one string). TF's unicode_decode and unicode_split answer RaggedTensors,
which ringflow does not have: they are listed as missing.

Errors follow TF's three policies: 'replace' writes replacement_char for each malformed sequence or invalid code
point, 'ignore' drops it, 'strict' fails the run with InvalidArgumentError.
"""
import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, host_kernel, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor

CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}
INPUT_CODECS = dict(CODECS, **{"US-ASCII": "ascii", "ISO-8859-1": "latin-1", "UTF-16-LE": "utf-16-le",
                               "UTF-32-LE": "utf-32-le"})
ERRORS = ("strict", "replace", "ignore")
LAST_CODE_POINT = 0x10FFFF


def _codec(name, table, what):
    if name not in table:
        raise ValueError(f"{what}: encoding {name!r} is not supported; use one of {sorted(table)}")
    return table[name]


def _decode(data, codec, errors, replacement):
    """data decoded; malformed sequences replaced, dropped or refused (a U+FFFD already in the data is taken for a
    replacement too when another replacement_char is asked for)."""
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        if errors == "strict":
            raise InvalidArgumentError(f"Invalid formatting on input string {data!r} for its encoding") from None
    if errors == "ignore":
        return data.decode(codec, errors="ignore")
    return data.decode(codec, errors="replace").replace("\ufffd", chr(replacement))


def _transcode(x, input_encoding, output_encoding, errors, replacement_char, replace_control_characters):
    inp, out = INPUT_CODECS[input_encoding], CODECS[output_encoding]
    result = np.empty(x.shape, dtype=object)
    for index in np.ndindex(x.shape):
        text = _decode(x[index], inp, errors, replacement_char)
        if replace_control_characters:
            text = "".join(chr(replacement_char) if ord(c) < 0x20 else c for c in text)
        result[index] = text.encode(out)
    return result


def _encode(codes, output_encoding, errors, replacement_char):
    out = CODECS[output_encoding]
    flat = codes.reshape(int(np.prod(codes.shape[:-1], dtype=np.int64)), codes.shape[-1])
    result = np.empty(flat.shape[0], dtype=object)
    for row in range(flat.shape[0]):
        chars = []
        for c in flat[row]:
            c = int(c)
            if 0 <= c <= LAST_CODE_POINT and not 0xD800 <= c <= 0xDFFF:
                chars.append(chr(c))
            elif errors == "strict":
                raise InvalidArgumentError(f"Invalid code point {c}: unicode_encode takes 0..0x10FFFF outside the "
                                           f"surrogates")
            elif errors == "replace":
                chars.append(chr(replacement_char))
            elif 0xD800 <= c <= 0xDFFF:  # TF's 'ignore' drops out-of-range code points but writes a surrogate,
                chars.append("\ufffd")  # which its UTF conversion then substitutes
        result[row] = "".join(chars).encode(out)
    return result.reshape(codes.shape[:-1])


register("UnicodeTranscode", kernel=host_kernel(_transcode), infer=lambda x, **a: [(x.shape, dtypes.string)])
register("UnicodeEncode", kernel=host_kernel(_encode),
         infer=lambda codes, **a: [(None if codes.shape.ndims is None else codes.shape[:-1], dtypes.string)])


def _check(errors, replacement_char, what):
    if errors not in ERRORS:
        raise ValueError(f"{what}: errors must be one of {list(ERRORS)}, got {errors!r}")
    if not 0 <= int(replacement_char) <= LAST_CODE_POINT:
        raise ValueError(f"{what}: replacement_char {replacement_char!r} is not a unicode code point")


def unicode_transcode(input, input_encoding, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                      replace_control_characters=False, name=None):
    """Each string decoded from input_encoding and encoded in output_encoding (UTF-8, UTF-16-BE or UTF-32-BE)."""
    x = convert_to_tensor(input, dtype=dtypes.string if not hasattr(input, "dtype") else None)
    if x.dtype != dtypes.string:
        raise TypeError(f"unicode_transcode takes a tf.string tensor, got {x.name!r} of dtype {x.dtype.name}")
    _codec(input_encoding, INPUT_CODECS, "unicode_transcode")
    _codec(output_encoding, CODECS, "unicode_transcode")
    _check(errors, replacement_char, "unicode_transcode")
    return apply_op("UnicodeTranscode", [x], name=name or "UnicodeTranscode", input_encoding=input_encoding,
                    output_encoding=output_encoding, errors=errors, replacement_char=int(replacement_char),
                    replace_control_characters=bool(replace_control_characters))


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """int32 code points [..., n] encoded as strings [...]: each innermost row one string (dense input only: TF's
    ragged form needs RaggedTensor, which ringflow lacks)."""
    codes = convert_to_tensor(input, dtype=dtypes.int32 if not hasattr(input, "dtype") else None)
    if codes.dtype != dtypes.int32:
        raise TypeError(f"unicode_encode takes int32 code points, got {codes.name!r} of dtype {codes.dtype.name}")
    if codes.shape.ndims == 0:
        raise ValueError("unicode_encode needs code points of rank >= 1: the innermost axis makes each string")
    _codec(output_encoding, CODECS, "unicode_encode")
    _check(errors, replacement_char, "unicode_encode")
    return apply_op("UnicodeEncode", [codes], name=name or "UnicodeEncode", output_encoding=output_encoding,
                    errors=errors, replacement_char=int(replacement_char))
