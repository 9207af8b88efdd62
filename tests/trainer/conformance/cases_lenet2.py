"""The row-window family: stride-1 convolutions of more than four channels, which the host convolves by row windows
(trainer/ops/kernels/conv.py: one GEMM per filter row, the padding rows skipped), against TF, both gradients included.

Filters of odd and even sizes (SAME's padding then uneven), VALID, images smaller than the filter, float64. Values in
(-1, 1) and small images: a float32 filter gradient sums a product per output pixel, and TF's tolerance for float32
(atol 2e-6) is tighter than the rounding of long sums that cancel.
"""
from .cases import call, t


def cases():
    def conv(x_shape, w_shape, padding, dtype="float32", salt=0):
        return call("nn.conv2d", t(dtype, x_shape, "unit", salt), t(dtype, w_shape, "unit", salt + 1), [1, 1, 1, 1],
                    padding, grad="grad_ys")
    return {f"lenet2/{name}": case for name, case in [
        ("nn.conv2d/rows/5x5_same", conv((1, 6, 5, 6), (5, 5, 6, 4), "SAME", salt=3)),
        ("nn.conv2d/rows/4x4_same_uneven_padding", conv((1, 5, 6, 5), (4, 4, 5, 3), "SAME", salt=5)),
        ("nn.conv2d/rows/2x3_valid", conv((1, 6, 5, 6), (2, 3, 6, 4), "VALID", salt=7)),
        ("nn.conv2d/rows/5x5_same_image_smaller_than_filter", conv((2, 3, 2, 6), (5, 5, 6, 3), "SAME", salt=9)),
        ("nn.conv2d/rows/3x3_same/float64", conv((2, 5, 5, 8), (3, 3, 8, 4), "SAME", "float64", salt=11)),
    ]}
