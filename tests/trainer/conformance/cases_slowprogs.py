"""The slow-program family: the kernels and gradient rules that outside TF1 programs spent their time in, against TF.

TF1's fused batch normalization (FusedBatchNormV3 and its gradient op, through tf.nn and tf.layers on 4-D images),
the input gradient of stride-1 VALID convolutions (a filter as large as the image: a "dense" layer written as a
convolution), and the gradient of a broadcast operand of Sub and SquaredDifference (negated after its sum).
"""
from .cases import call, t

IMAGES = (2, 4, 4, 3)


def cases():
    return {f"slowprogs/{name}": case for name, case in [
        ("nn.fused_batch_norm/training", call("nn.fused_batch_norm", t("float32", IMAGES), t("float32", (3,), "pos"),
                                              t("float32", (3,)), grad="grad_ys")),
        ("nn.fused_batch_norm/inference", call("nn.fused_batch_norm", t("float32", IMAGES), t("float32", (3,), "pos"),
                                               t("float32", (3,)), mean=t("float32", (3,), salt=1),
                                               variance=t("float32", (3,), "pos", salt=2), is_training=False,
                                               grad="grad_ys")),
        ("layers.batch_normalization/images/training", call("layers.batch_normalization", t("float32", IMAGES),
                                                            training=True, grad="grad_ys")),
        ("layers.batch_normalization/images/inference", call("layers.batch_normalization", t("float32", IMAGES),
                                                             training=False, grad="grad_ys")),
        ("layers.batch_normalization/nchw/training", call("layers.batch_normalization", t("float32", IMAGES), axis=1,
                                                          training=True, grad="grad_ys")),
        ("nn.conv2d/valid/filter_as_large_as_the_image", call("nn.conv2d", t("float32", (2, 5, 5, 3)),
                                                              t("float32", (5, 5, 3, 4), salt=1), [1, 1, 1, 1],
                                                              "VALID", grad="grad_ys")),
        ("nn.conv2d/valid/stride_1", call("nn.conv2d", t("float32", (2, 6, 7, 3)), t("float32", (3, 2, 3, 4), salt=1),
                                          [1, 1, 1, 1], "VALID", grad="grad_ys")),
        ("subtract/broadcast", call("subtract", t("float32", (4, 3)), t("float32", (3,), salt=1), grad="grad_ys")),
        ("squared_difference/broadcast", call("squared_difference", t("float32", (4, 3)), t("float32", (3,), salt=1),
                                              grad="grad_ys")),
    ]}
