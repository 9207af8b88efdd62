"""Array kernels that ops call: im2col convolution and pooling on numpy or CuPy, the fused CUDA kernels, and the
scatter forms CuPy lacks."""
