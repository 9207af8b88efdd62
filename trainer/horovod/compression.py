"""Horovod's gradient compression: what a tensor is cast to around a collective, and back."""
from ..ops.array_ops import cast
from ..framework import dtypes


class Compressor:
    """compress(tensor) -> (tensor for the collective, context); decompress(tensor, context) -> tensor."""

    @staticmethod
    def compress(tensor):
        raise NotImplementedError

    @staticmethod
    def decompress(tensor, ctx):
        raise NotImplementedError


class NoneCompressor(Compressor):
    """The tensor as it is."""

    @staticmethod
    def compress(tensor):
        return tensor, None

    @staticmethod
    def decompress(tensor, ctx):
        return tensor


class FP16Compressor(Compressor):
    """Floating tensors rounded to float16 before the collective and cast back to their dtype after it.

    The values are Horovod's (each rank's tensor rounded to float16, the result rounded to float16), but the
    communicators sum float16 in float32, so the bytes on the wire are not halved.
    """

    @staticmethod
    def compress(tensor):
        if tensor.dtype.kind != "f" or tensor.dtype == dtypes.float16:
            return tensor, None
        return cast(tensor, dtypes.float16), tensor.dtype

    @staticmethod
    def decompress(tensor, ctx):
        return tensor if ctx is None else cast(tensor, ctx)


class Compression:
    """The compressors by Horovod's names: Compression.none and Compression.fp16."""
    none = NoneCompressor
    fp16 = FP16Compressor
