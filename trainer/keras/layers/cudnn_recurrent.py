"""Keras' CuDNNLSTM and CuDNNGRU with their weight layouts (a bias for the inputs and one for the recurrent
product, side by side: (8 * units,) and (6 * units,)), run through the same step math as LSTM and GRU: sigmoid
gates, tanh, and GRU's reset gate applied after the recurrent product, as cuDNN computes them. No GPU is needed.
"""
from ...ops.array_ops import concat
from .. import initializers
from .recurrent import RNN
from .recurrent_cells import GRUCell, LSTMCell

_CUDNN_ARGS = ("return_sequences", "return_state", "go_backwards", "stateful", "name", "trainable", "dtype",
               "input_shape", "batch_input_shape", "batch_size", "weights", "input_dim", "input_length",
               "activity_regularizer")


class CuDNNLSTMCell(LSTMCell):
    """LSTMCell with sigmoid gates and the bias (8 * units): input biases i, f, c, o then recurrent ones."""

    def __init__(self, units, **kwargs):
        super().__init__(units, recurrent_activation="sigmoid", **kwargs)

    def bias_shape(self):
        return (8 * self.units,)

    def bias_init(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        units, init = self.units, self.bias_initializer

        def forget_ones(shape, dtype=None):  # cuDNN's recurrent forget bias starts at 1, as Keras' CuDNNLSTM
            from_init = init((units * 5,), dtype=dtype), initializers.Ones()((units,), dtype=dtype), \
                init((units * 2,), dtype=dtype)
            return concat(list(from_init), 0)
        return forget_ones

    def input_bias(self):
        return self.bias[:4 * self.units] + self.bias[4 * self.units:]


class CuDNNGRUCell(GRUCell):
    """GRUCell(reset_after=True) with sigmoid gates and the bias (6 * units): input biases then recurrent ones."""

    def __init__(self, units, **kwargs):
        super().__init__(units, recurrent_activation="sigmoid", reset_after=True, **kwargs)

    def bias_shape(self):
        return (6 * self.units,)

    def input_bias(self):
        return self.bias[:3 * self.units]

    def recurrent_bias(self):
        return self.bias[3 * self.units:]


class _CuDNNLayer(RNN):
    cell_class = None

    def __init__(self, units, **kwargs):
        layer_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in _CUDNN_ARGS}
        super().__init__(self.cell_class(units, dtype=layer_kwargs.get("dtype"), **kwargs), **layer_kwargs)
        self.supports_masking = False  # as Keras' CuDNN layers: a mask is not applied

    @property
    def units(self):
        return self.cell.units

    def call(self, inputs, mask=None, training=None, initial_state=None):
        return super().call(inputs, training=training, initial_state=initial_state)

    def get_config(self):
        config = super().get_config()
        cell = dict(config.pop("cell")["config"])
        for key in ("name", "trainable", "dtype", "activation", "recurrent_activation", "use_bias", "dropout",
                    "recurrent_dropout", "implementation", "reset_after"):
            cell.pop(key, None)
        for key in ("unroll", "time_major"):
            config.pop(key, None)
        return dict(config, **cell)


class CuDNNLSTM(_CuDNNLayer):
    """CuDNNLSTM(units, kernel_initializer, recurrent_initializer, bias_initializer, unit_forget_bias, ...)."""

    cell_class = CuDNNLSTMCell


class CuDNNGRU(_CuDNNLayer):
    """CuDNNGRU(units, kernel_initializer, recurrent_initializer, bias_initializer, ...)."""

    cell_class = CuDNNGRUCell
