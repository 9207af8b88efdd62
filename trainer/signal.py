"""tg.signal: TF1's tf.signal (and, under its older name, tf.spectral): the Fourier transforms."""
from .ops.spectral_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d, irfft3d, rfft, rfft2d, rfft3d

__all__ = ["fft", "fft2d", "fft3d", "ifft", "ifft2d", "ifft3d", "irfft", "irfft2d", "irfft3d", "rfft", "rfft2d",
           "rfft3d"]
