"""Keras' ConvLSTM2D: an LSTM over (batch, time, rows, cols, channels) whose input and recurrent transformations
are 2-D convolutions. kernel is kernel_size + (channels, 4 * filters) and recurrent_kernel kernel_size + (filters,
4 * filters), the gates i, f, c, o side by side as in LSTM; the recurrent convolution is 'same' with stride 1, so
the states keep the shape of the input convolution's output (batch, rows', cols', filters)."""
from .. import activations, constraints, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from .convolutional import channels_last_only, normalize_tuple
from .recurrent import dropout_masks
from .recurrent_cells import CellLayer, forget_bias_initializer
from .weights import layer_weight, weights_config


def conv_length(length, kernel, padding, stride, dilation):
    """The length of a convolution's output along one axis (None when unknown)."""
    if length is None:
        return None
    span = (kernel - 1) * dilation + 1
    return (length - (span - 1 if padding == "valid" else 0) + stride - 1) // stride


class ConvLSTM2DCell(Layer):
    """One ConvLSTM2D step on (batch, rows, cols, channels) frames; states [h, c]."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1),
                 activation="tanh", recurrent_activation="hard_sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self.filters = int(filters)
        self.kernel_size = normalize_tuple(kernel_size, 2, "kernel_size")
        self.strides = normalize_tuple(strides, 2, "strides")
        self.padding = padding.lower()
        if self.padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be 'valid' or 'same'. Received: {padding!r}")
        self.data_format = channels_last_only(data_format, "ConvLSTM2D")
        self.dilation_rate = normalize_tuple(dilation_rate, 2, "dilation_rate")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias, self.unit_forget_bias = use_bias, unit_forget_bias
        for kind, values in (("initializer", (kernel_initializer, recurrent_initializer, bias_initializer)),
                             ("regularizer", (kernel_regularizer, recurrent_regularizer, bias_regularizer)),
                             ("constraint", (kernel_constraint, recurrent_constraint, bias_constraint))):
            module = {"initializer": initializers, "regularizer": regularizers, "constraint": constraints}[kind]
            for part, value in zip(("kernel", "recurrent", "bias"), values):
                setattr(self, f"{part}_{kind}", module.get(value))
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.state_size = (self.filters, self.filters)
        self.input_masks = self.recurrent_masks = None

    def build(self, input_shape):
        channels = input_shape[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        gates = 4 * self.filters
        self.kernel = layer_weight(self, "kernel", self.kernel_size + (channels, gates))
        self.recurrent_kernel = layer_weight(self, "recurrent_kernel", self.kernel_size + (self.filters, gates),
                                             kind="recurrent")
        self.bias = self.add_weight(
            "bias", (gates,), initializer=forget_bias_initializer(self.filters, self.bias_initializer)
            if self.unit_forget_bias else self.bias_initializer, regularizer=self.bias_regularizer,
            constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def input_conv(self, x, kernel):
        return K.conv2d(x, kernel, strides=self.strides, padding=self.padding, dilation_rate=self.dilation_rate)

    def zero_state(self, frame):
        """Zeros shaped like a state, for (batch, rows, cols, channels) frames."""
        return K.zeros_like(self.input_conv(frame, self.kernel[..., :self.filters]))

    def start_batch(self, inputs, training=None):
        """Draw this batch's dropout masks, one per gate, from the RNN's (batch, time, ...) inputs."""
        first = inputs[:, 0]
        self.input_masks = dropout_masks(first, self.dropout, training, 4) if 0 < self.dropout < 1 else None
        self.recurrent_masks = dropout_masks(self.zero_state(first), self.recurrent_dropout, training, 4) \
            if 0 < self.recurrent_dropout < 1 else None

    def gates(self, x, masks, kernel, conv, bias=None):
        """The four gates' convolutions of x (each with its dropout mask when there are masks)."""
        f = self.filters
        if masks:
            parts = [conv(x * m, kernel[..., i * f:(i + 1) * f]) for i, m in enumerate(masks)]
        else:
            z = conv(x, kernel)
            parts = [z[..., i * f:(i + 1) * f] for i in range(4)]
        return parts if bias is None else [K.bias_add(p, bias[i * f:(i + 1) * f]) for i, p in enumerate(parts)]

    def call(self, inputs, states, training=None):
        h_prev, c_prev = states[0], states[1]
        x_i, x_f, x_c, x_o = self.gates(inputs, self.input_masks, self.kernel, self.input_conv, self.bias)
        h_i, h_f, h_c, h_o = self.gates(h_prev, self.recurrent_masks, self.recurrent_kernel,
                                        lambda x, k: K.conv2d(x, k, padding="same"))
        act, gate = self.activation, self.recurrent_activation
        i, f, o = gate(x_i + h_i), gate(x_f + h_f), gate(x_o + h_o)
        c = f * c_prev + i * act(x_c + h_c)
        h = o * act(c)
        return h, [h, c]

    def output_shape_for(self, rows, cols):
        return tuple(conv_length(n, k, self.padding, s, d) for n, k, s, d in
                     zip((rows, cols), self.kernel_size, self.strides, self.dilation_rate)) + (self.filters,)

    def get_config(self):
        return dict(super().get_config(), filters=self.filters, kernel_size=self.kernel_size, strides=self.strides,
                    padding=self.padding, data_format=self.data_format, dilation_rate=self.dilation_rate,
                    activation=activations.serialize(self.activation),
                    recurrent_activation=activations.serialize(self.recurrent_activation), use_bias=self.use_bias,
                    unit_forget_bias=self.unit_forget_bias, dropout=self.dropout,
                    recurrent_dropout=self.recurrent_dropout, **weights_config(self, "kernel", "recurrent", "bias"))


class ConvLSTM2D(CellLayer):
    """ConvLSTM2D(filters, kernel_size, strides=(1, 1), padding='valid', recurrent_activation='hard_sigmoid',
    return_sequences=False, ...) over (batch, time, rows, cols, channels)."""

    cell_class = ConvLSTM2DCell

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.input_spec = InputSpec(ndim=5)

    def build(self, input_shape):
        shape = input_shape[0] if isinstance(input_shape, list) else input_shape
        self.frame = self.cell.output_shape_for(shape[2], shape[3])
        super().build(input_shape)

    def get_initial_state(self, inputs):
        zeros = self.cell.zero_state(inputs[:, 0])
        return [zeros, zeros]

    def state_shapes(self):
        return [(self.batch_size,) + self.frame] * 2

    def compute_output_shape(self, input_shape):
        shape = input_shape[0] if isinstance(input_shape, list) else input_shape
        frame = self.cell.output_shape_for(shape[2], shape[3])
        output = (shape[0], shape[1]) + frame if self.return_sequences else (shape[0],) + frame
        return [output, (shape[0],) + frame, (shape[0],) + frame] if self.return_state else output
