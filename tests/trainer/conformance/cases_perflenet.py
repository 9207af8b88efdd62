"""The convolution-path family: the kernels and gradient rules a LeNet step spends its time in, against TF.

A ReLU followed by max pooling: the ReLU's gradient is masked on the pooled values before the pooling gradient;
tiled 2x2 and overlapping SAME windows, windows of tied zeros, float32 and float64.
"""
from .cases import call, t


def relu(x):
    return {"make": "nn.relu", "args": [x], "kwargs": {}}


def cases():
    return {f"perflenet/{name}": case for name, case in [
        ("nn.max_pool/relu/2x2_valid", call("nn.max_pool", relu(t("float32", (2, 6, 6, 3))), [1, 2, 2, 1],
                                            [1, 2, 2, 1], "VALID", grad="grad_ys")),
        ("nn.max_pool/relu/3x3_same_stride_2", call("nn.max_pool", relu(t("float32", (2, 7, 6, 3), salt=1)),
                                                    [1, 3, 3, 1], [1, 2, 2, 1], "SAME", grad="grad_ys")),
        ("nn.max_pool/relu/2x2_valid/float64", call("nn.max_pool", relu(t("float64", (2, 8, 8, 4), salt=2)),
                                                    [1, 2, 2, 1], [1, 2, 2, 1], "VALID", grad="grad_ys")),
    ]}
