"""tg.layers (TF1's tf.layers): layer classes and their functional forms, variables made with tg.get_variable.

kernel_regularizer and the other regularizers take a callable from a variable to a scalar loss tensor
(e.g. `lambda w: 1e-4 * tg.nn.l2_loss(w)`); the losses go to GraphKeys.REGULARIZATION_LOSSES.
"""
from .base import Layer
from .convolutional import AveragePooling2D, Conv2D, MaxPooling2D, average_pooling2d, conv2d, max_pooling2d
from .conv_transpose import Conv2DTranspose, conv2d_transpose
from .conv1d import AveragePooling1D, Conv1D, MaxPooling1D, average_pooling1d, conv1d, max_pooling1d
from .core import Dense, Dropout, Flatten, dense, dropout, flatten
from .normalization import BatchNormalization, batch_normalization

__all__ = ["average_pooling1d", "average_pooling2d", "AveragePooling1D", "AveragePooling2D", "batch_normalization",
           "BatchNormalization", "Conv1D", "conv1d", "Conv2D", "conv2d", "conv2d_transpose", "Conv2DTranspose",
           "dense", "Dense", "Dropout", "dropout", "flatten", "Flatten", "Layer", "max_pooling1d", "max_pooling2d",
           "MaxPooling1D", "MaxPooling2D"]
