"""tg.audio: TF1's tf.audio namespace, the WAV codec."""
from .audio_ops import decode_wav, encode_wav

__all__ = ["decode_wav", "encode_wav"]
