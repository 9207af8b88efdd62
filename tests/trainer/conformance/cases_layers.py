"""Layers over inputs of rank > 2 with unknown dimensions: TF's Dense contracts the last axis (tensordot), whatever
the leading dimensions are, known or not."""
from .cases import call, init, p


def cases():
    rank3 = dict(shape=(None, None, 3), feed=(2, 4, 3))
    return {
        "layers/dense/two_unknown_leading": call("layers.dense", p(**rank3), 2, kernel_initializer=init("constant", 0.5),
                                                 grad=True),
        "layers/dense/rank4_unknown": call("layers.dense", p(shape=(None, 2, None, 3), feed=(1, 2, 2, 3)), 2,
                                           use_bias=False, kernel_initializer=init("ones")),
        "layers/dense/one_unknown_leading": call("layers.dense", p(shape=(None, 4, 3), feed=(2, 4, 3)), 1,
                                                 kernel_initializer=init("ones")),
    }
