"""tg.layers (TF1's tf.layers): layer classes and their functional forms, variables made with tg.get_variable.

kernel_regularizer and the other regularizers take a callable from a variable to a scalar loss tensor
(e.g. `lambda w: 1e-4 * tg.nn.l2_loss(w)`); the losses go to GraphKeys.REGULARIZATION_LOSSES.
"""
from .base import Layer
from .convolutional import (AveragePooling2D, Conv2D, MaxPooling2D, average_pooling2d, conv2d,
                            max_pooling2d)
from .conv_transpose import Conv2DTranspose, conv2d_transpose
from .core import Dense, Dropout, Flatten, dense, dropout, flatten
from .normalization import BatchNormalization, batch_normalization

__all__ = ["AveragePooling2D", "BatchNormalization", "Conv2D", "Conv2DTranspose", "conv2d_transpose", "Dense", "Dropout", "Flatten", "Layer",
           "MaxPooling2D", "average_pooling2d", "batch_normalization", "conv2d", "dense", "dropout", "flatten",
           "max_pooling2d"]
