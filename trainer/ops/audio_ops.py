"""tf.audio's WAV codec: 16-bit PCM files to float32 samples in [-1, 1) and back, as TF's DecodeWav and EncodeWav."""
import struct

import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, host_kernel, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .tensor_util import static_shape

_SCALE = 32768.0  # int16 samples are fractions of 2**15


def _chunks(contents):
    """The (id, body) chunks after a RIFF/WAVE header."""
    if len(contents) < 12 or contents[:4] != b"RIFF" or contents[8:12] != b"WAVE":
        raise InvalidArgumentError(f"decode_wav: the contents are not a RIFF/WAVE file (they begin {contents[:12]!r})")
    at = 12
    while at + 8 <= len(contents):
        chunk, size = contents[at:at + 4], struct.unpack("<I", contents[at + 4:at + 8])[0]
        yield chunk, contents[at + 8:at + 8 + size]
        at += 8 + size  # TF's reader does not skip RIFF's pad byte after an odd-sized chunk, nor does this one


def _decode_wav(contents, desired_channels, desired_samples):
    contents = bytes(contents.item() if hasattr(contents, "item") else contents)
    fmt = data = None
    for chunk, body in _chunks(contents):
        if chunk == b"fmt " and len(body) >= 16:
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif chunk == b"data":
            data = body
            break
    if fmt is None or data is None:
        raise InvalidArgumentError("decode_wav: the WAV file has no 'fmt ' or no 'data' chunk")
    kind, channels, rate, _, _, bits = fmt
    if kind not in (1, 0xFFFE) or bits != 16 or channels == 0:
        raise InvalidArgumentError(f"decode_wav reads 16-bit PCM only, got format {kind}, {bits} bits, {channels} "
                                   "channels")
    frames = len(data) // (2 * channels)
    decoded = np.frombuffer(data[:frames * 2 * channels], "<i2").reshape(frames, channels) / np.float32(_SCALE)
    width = channels if desired_channels < 1 else desired_channels
    length = frames if desired_samples < 0 else desired_samples
    out = np.zeros((length, width), np.float32)  # past the file's end: silence
    take = min(length, frames)
    # more channels than the file has repeat its last one, as TF's decoder does
    out[:take] = decoded[:take, np.minimum(np.arange(width), channels - 1)]
    return out, np.int32(rate)


def _encode_wav(audio, sample_rate):
    if audio.ndim != 2:
        raise InvalidArgumentError(f"encode_wav: audio must be 2-D [samples, channels], got shape {audio.shape}")
    scaled = audio.astype(np.float64) * _SCALE
    samples = np.clip(np.trunc(scaled + np.copysign(0.5, scaled)), -32768, 32767).astype("<i2")  # C's roundf
    frames, channels = audio.shape
    data = samples.tobytes()
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 1, channels,
                         int(sample_rate), int(sample_rate) * channels * 2, channels * 2, 16, b"data", len(data))
    return np.array(header + data, dtype=object)


register("DecodeWav", kernel=host_kernel(_decode_wav), fresh=True,
         infer=lambda contents, desired_channels, desired_samples: [
             ((None if desired_samples < 0 else desired_samples, None if desired_channels < 1 else desired_channels),
              dtypes.float32), ((), dtypes.int32)])
register("EncodeWav", kernel=host_kernel(_encode_wav), fresh=True, infer=lambda audio, rate: [((), dtypes.string)])


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """(audio, sample_rate) of a 16-bit PCM WAV file's bytes: float32 [samples, channels] in [-1, 1) and the
    int32 rate; desired_channels / desired_samples (if given) repeat the last channel or pad with silence."""
    contents = convert_to_tensor(contents, dtype=dtypes.string, name="contents")
    if static_shape(contents) not in (None, ()):
        raise ValueError(f"decode_wav takes one file's contents, a string scalar; got {contents.name!r} of shape "
                         f"{contents.shape}")
    return apply_op("DecodeWav", [contents], name=name or "DecodeWav", desired_channels=int(desired_channels),
                    desired_samples=int(desired_samples))


def encode_wav(audio, sample_rate, name=None):
    """The bytes of a 16-bit PCM WAV file of float32 `audio` [samples, channels] (clipped to [-1, 1]) at
    `sample_rate` samples a second."""
    audio = convert_to_tensor(audio, dtype=dtypes.float32, name="audio")
    rate = convert_to_tensor(sample_rate, dtype=dtypes.int32, name="sample_rate")
    if audio.ndim not in (None, 2):
        raise ValueError(f"encode_wav needs audio of shape [samples, channels], got {audio.name!r} of shape "
                         f"{audio.shape}")
    return apply_op("EncodeWav", [audio, rate], name=name or "EncodeWav")
