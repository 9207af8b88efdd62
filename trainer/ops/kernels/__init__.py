"""Kernels that only some devices need: the fused CUDA kernels and the scatter forms CuPy lacks."""
