"""The pooling family: ReLU -> max pooling as LeNet's step runs it, where ReLU's gradient on the pooled values and the
pooling gradient are one fused kernel (client/fusion.py), against TF.

Tiles other than 2x2, tiles leaving a row and a column out, and an infinite gradient, whose product with ReLU's
zero mask is NaN in TF's ReluGrad: the fused kernel hands that case back to the two kernels in turn.
"""
from .cases import call, t


def _make(fn, *args):
    return {"make": fn, "args": list(args), "kwargs": {}}


def cases():
    relu = lambda shape, salt, dtype="float32": _make("nn.relu", t(dtype, shape, salt=salt))  # noqa: E731
    # x - 1 before the ReLU: some windows are all zeros, where TF's gradient is inf * 0 = NaN
    shifted_relu = _make("nn.relu", _make("subtract", t("float32", (2, 4, 4, 3), salt=2), {"py": 1.0}))
    return {f"lenetpool/{name}": case for name, case in [
        ("nn.max_pool/relu/3x3_tiles", call("nn.max_pool", relu((2, 6, 9, 3), 4), [1, 3, 3, 1], [1, 3, 3, 1],
                                            "VALID", grad="grad_ys")),
        ("nn.max_pool/relu/2x2_leftover_row_and_column", call("nn.max_pool", relu((2, 7, 5, 3), 5), [1, 2, 2, 1],
                                                              [1, 2, 2, 1], "VALID", grad="grad_ys")),
        ("nn.max_pool/relu/infinite_gradient", call("multiply", _make("nn.max_pool", shifted_relu, [1, 2, 2, 1],
                                                                      [1, 2, 2, 1], "VALID"),
                                                    {"np": "float32", "v": float("inf")}, grad=True)),
        ("nn.max_pool/relu/2x2/float64", call("nn.max_pool", relu((3, 4, 6, 5), 7, "float64"), [1, 2, 2, 1],
                                              [1, 2, 2, 1], "VALID", grad="grad_ys")),
    ]}
