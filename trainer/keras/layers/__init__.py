"""tf.keras.layers: the layer classes ringflow has; the others raise NotInRingflow."""
from ...unsupported import missing_names
from ..engine.base_layer import InputSpec, Layer
from ..engine.input_layer import Input, InputLayer
from .advanced_activations import ELU, LeakyReLU, PReLU, ReLU, Softmax, ThresholdedReLU
from .convolutional import (Conv1D, Conv2D, Convolution1D, Convolution2D, Cropping1D, Cropping2D, UpSampling1D,
                            UpSampling2D, ZeroPadding1D, ZeroPadding2D)
from .convolutional_3d import (AveragePooling3D, AvgPool3D, Conv3D, Conv3DTranspose, Convolution3D,
                               Convolution3DTranspose, Cropping3D, GlobalAveragePooling3D, GlobalAvgPool3D,
                               GlobalMaxPool3D, GlobalMaxPooling3D, MaxPool3D, MaxPooling3D, UpSampling3D,
                               ZeroPadding3D)
from .convolutional_depthwise import (Conv2DTranspose, Convolution2DTranspose, DepthwiseConv2D, SeparableConv1D,
                                      SeparableConv2D, SeparableConvolution1D, SeparableConvolution2D)
from .convolutional_recurrent import ConvLSTM2D
from .core import (Activation, ActivityRegularization, Dense, Dropout, Flatten, Lambda, Masking, Permute, RepeatVector,
                   Reshape)
from .cudnn_recurrent import CuDNNGRU, CuDNNLSTM
from .dense_attention import AdditiveAttention, Attention
from .dense_features import DenseFeatures
from .embeddings import Embedding
from .local import LocallyConnected1D, LocallyConnected2D
from .merge import (Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract, add, average, concatenate,
                    dot, maximum, minimum, multiply, subtract)
from .noise import (AlphaDropout, GaussianDropout, GaussianNoise, SpatialDropout1D, SpatialDropout2D,
                    SpatialDropout3D)
from .normalization import BatchNormalization, LayerNormalization
from .pooling import (AveragePooling1D, AveragePooling2D, AvgPool1D, AvgPool2D, GlobalAveragePooling1D,
                      GlobalAveragePooling2D, GlobalAvgPool1D, GlobalAvgPool2D, GlobalMaxPool1D, GlobalMaxPool2D,
                      GlobalMaxPooling1D, GlobalMaxPooling2D, MaxPool1D, MaxPool2D, MaxPooling1D, MaxPooling2D)
from .recurrent import RNN, AbstractRNNCell, StackedRNNCells
from .recurrent_cells import GRU, LSTM, GRUCell, LSTMCell, SimpleRNN, SimpleRNNCell
from .serialization import deserialize, serialize
from .wrappers import Bidirectional, TimeDistributed, Wrapper

__getattr__ = missing_names(__name__, have="tf.keras.layers has the core, convolution, pooling, embedding, "
                            "normalization, merge, advanced-activation, attention, locally connected, recurrent, "
                            "wrapper and noise layers "
                            "(README, 'tf.keras')")
