"""WAV encoding of float audio as TF's audio summary writes it: 16-bit little-endian PCM in a 44-byte RIFF header,
each sample round(x * 32768) clamped to the int16 range (TF's wav_io)."""
import struct

import numpy as np


def encode_wav(samples, sample_rate):
    """`samples` [frames, channels] of floats in [-1, 1] as WAV bytes at `sample_rate` frames a second."""
    frames, channels = samples.shape
    pcm = np.clip(np.round(samples.astype(np.float32) * np.float32(32768)), -32768, 32767).astype("<i2").tobytes()
    rate = int(sample_rate)
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(pcm), b"WAVE", b"fmt ", 16, 1, channels, rate,
                         rate * channels * 2, channels * 2, 16, b"data", len(pcm))
    return header + pcm
