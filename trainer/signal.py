"""tg.signal: TF1's tf.signal (and, under its older name, tf.spectral): the Fourier and cosine transforms,
framing, windows, the short-time Fourier transform and the mel features."""
from .ops.spectral_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d, irfft3d, rfft, rfft2d, rfft3d

__all__ = ["fft", "fft2d", "fft3d", "ifft", "ifft2d", "ifft3d", "irfft", "irfft2d", "irfft3d", "rfft", "rfft2d",
           "rfft3d"]
from .ops.signal_ops import (dct, fftshift, frame, hamming_window, hann_window, idct, ifftshift, inverse_stft,
                             inverse_stft_window_fn, linear_to_mel_weight_matrix, mfccs_from_log_mel_spectrograms,
                             overlap_and_add, stft)

__all__ += ["dct", "fftshift", "frame", "hamming_window", "hann_window", "idct", "ifftshift", "inverse_stft",
            "inverse_stft_window_fn", "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms",
            "overlap_and_add", "stft"]
from .ops.signal_ops import kaiser_bessel_derived_window, kaiser_window, vorbis_window

__all__ += ["kaiser_bessel_derived_window", "kaiser_window", "vorbis_window"]
