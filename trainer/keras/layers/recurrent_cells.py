"""Keras' SimpleRNN, LSTM and GRU: their cells and the RNN layers that run them, with Keras' weight layouts.

kernel is (input_dim, gates * units) and recurrent_kernel (units, gates * units), the gates side by side in
Keras' order: LSTM i, f, c, o; GRU z, r, h. TF 1.15's tf.keras.layers.LSTM and GRU are the v1 layers, so
recurrent_activation defaults to 'hard_sigmoid' and GRU's reset_after to False.
"""
from ...framework import dtypes
from ...ops.array_ops import cast, concat, reshape, shape, transpose
from ...ops.block_lstm_ops import block_lstm
from ...ops.core_ops import constant
from ...ops.tensor_util import static_shape
from .. import activations, constraints, initializers, regularizers
from .. import backend as K
from ..utils.generic_utils import serialized
from .recurrent import RNN, DropoutRNNCell


def forget_bias_initializer(units, bias_initializer):
    """Keras' unit_forget_bias: the forget gate's biases start at 1, the others as bias_initializer says."""
    def init(shape, dtype=None):
        return concat([bias_initializer((units,), dtype=dtype), initializers.Ones()((units,), dtype=dtype),
                       bias_initializer((units * 2,), dtype=dtype)], 0)
    return init


class GatedCell(DropoutRNNCell):
    """What the three cells share: arguments, weights, config."""

    def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 implementation=1, **kwargs):
        super().__init__(**kwargs)
        self.units, self.use_bias, self.implementation = int(units), use_bias, implementation
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.state_size = self.units
        self.input_masks = self.recurrent_masks = None

    def bias_shape(self):
        return (self.gates * self.units,)

    def bias_init(self):
        return self.bias_initializer

    def build(self, input_shape):
        self.input_dim = int(input_shape[-1])
        self.kernel = self.add_weight("kernel", (self.input_dim, self.gates * self.units),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight("recurrent_kernel", (self.units, self.gates * self.units),
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        self.bias = self.add_weight("bias", self.bias_shape(), initializer=self.bias_init(),
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.built = True

    def gate_inputs(self, inputs):
        """inputs @ kernel + bias for each gate, the input dropout masks applied (one per gate)."""
        u, masks = self.units, self.input_masks
        if self.implementation == 2 or self.gates == 1:
            z = K.dot(inputs * masks[0] if masks else inputs, self.kernel)
            z = K.bias_add(z, self.input_bias()) if self.use_bias else z
            return [z[:, i * u:(i + 1) * u] for i in range(self.gates)] if self.gates > 1 else [z]
        parts = []
        for i in range(self.gates):
            x = inputs * masks[i] if masks else inputs
            z = K.dot(x, self.kernel[:, i * u:(i + 1) * u])
            parts.append(K.bias_add(z, self.input_bias()[i * u:(i + 1) * u]) if self.use_bias else z)
        return parts

    def input_bias(self):
        return self.bias

    def recurrent(self, h, i):
        """h (its recurrent dropout mask for gate i applied) times the gate's recurrent kernel."""
        u = self.units
        h = h * self.recurrent_masks[i] if self.recurrent_masks else h
        return K.dot(h, self.recurrent_kernel[:, i * u:(i + 1) * u])

    def get_config(self):
        config = dict(super().get_config(), units=self.units, activation=activations.serialize(self.activation),
                      use_bias=self.use_bias, dropout=self.dropout, recurrent_dropout=self.recurrent_dropout,
                      implementation=self.implementation)
        if self.gates > 1:
            config["recurrent_activation"] = activations.serialize(self.recurrent_activation)
        for part in ("kernel", "recurrent", "bias"):
            config[f"{part}_initializer"] = serialized(initializers, getattr(self, f"{part}_initializer"))
            config[f"{part}_regularizer"] = serialized(regularizers, getattr(self, f"{part}_regularizer"))
            config[f"{part}_constraint"] = serialized(constraints, getattr(self, f"{part}_constraint"))
        return config


class SimpleRNNCell(GatedCell):
    """h = activation(x @ kernel + bias + h_prev @ recurrent_kernel)."""

    gates = 1

    def __init__(self, units, activation="tanh", **kwargs):
        kwargs.pop("recurrent_activation", None)
        super().__init__(units, activation=activation, **kwargs)

    def call(self, inputs, states, training=None):
        h = self.activation(self.gate_inputs(inputs)[0] + self.recurrent(states[0], 0))
        return h, [h]


class LSTMCell(GatedCell):
    """Keras' LSTM step: gates i, f, c, o; states [h, c]."""

    gates = 4

    def __init__(self, units, unit_forget_bias=True, **kwargs):
        super().__init__(units, **kwargs)
        self.unit_forget_bias = unit_forget_bias
        self.state_size = [self.units, self.units]

    def bias_init(self):
        return forget_bias_initializer(self.units, self.bias_initializer) if self.unit_forget_bias else self.bias_initializer

    def call(self, inputs, states, training=None):
        h_prev, c_prev = states[0], states[1]
        x_i, x_f, x_c, x_o = self.gate_inputs(inputs)
        act, gate = self.activation, self.recurrent_activation
        i = gate(x_i + self.recurrent(h_prev, 0))
        f = gate(x_f + self.recurrent(h_prev, 1))
        c = f * c_prev + i * act(x_c + self.recurrent(h_prev, 2))
        o = gate(x_o + self.recurrent(h_prev, 3))
        h = o * act(c)
        return h, [h, c]

    def fused_sequence(self, steps, states):
        """Every step over time-major `steps` in one BlockLSTM op (TF1's fused LSTM kernel, with its gradient):
        (outputs [time, batch, units], [h, c] after the last step); None where that op's math is not this
        cell's (its gates are sigmoids, its activation tanh, and it has no dropout)."""
        if activations.serialize(self.recurrent_activation) != "sigmoid" or \
                activations.serialize(self.activation) != "tanh" or self.dropout or self.recurrent_dropout:
            return None
        u = self.units

        def tf_order(w, rows):  # Keras' gates i, f, c, o -> BlockLSTM's i, c, f, o: as [[i, f], [c, o]], transposed
            # (one Transpose each way; four slices and a concat cost four zero-filled gradients and their sum)
            blocks = reshape(w, rows + [2, 2, u])
            return reshape(transpose(blocks, list(range(len(rows))) + [len(rows) + 1, len(rows), len(rows) + 2]),
                           rows + [4 * u])
        weights = concat([self.kernel, self.recurrent_kernel], 0)
        weights = tf_order(weights, [static_shape(weights)[0]])
        bias = tf_order(self.input_bias(), []) if self.use_bias else K.zeros_like(weights[0])
        known = static_shape(steps)[0]
        count = constant(known, dtype=dtypes.int64) if known is not None else cast(shape(steps)[0], dtypes.int64)
        _, cs, _, _, _, _, h = block_lstm(count, steps, states[1], states[0], weights, None, None, None, bias,
                                          forget_bias=0.0, cell_clip=None)
        return h, [h[-1], cs[-1]]

    def get_config(self):
        return dict(super().get_config(), unit_forget_bias=self.unit_forget_bias)


class GRUCell(GatedCell):
    """Keras' GRU step: gates z, r, h; h = z * h_prev + (1 - z) * candidate. reset_after=True (CuDNN's form)
    applies the reset gate after the recurrent product and keeps a second, recurrent bias: bias (2, 3 * units)."""

    gates = 3

    def __init__(self, units, reset_after=False, **kwargs):
        super().__init__(units, **kwargs)
        self.reset_after = reset_after

    def bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def input_bias(self):
        return self.bias[0] if self.reset_after else self.bias

    def recurrent_bias(self):
        return self.bias[1]

    def recurrent(self, h, i):
        out = super().recurrent(h, i)
        if self.reset_after and self.use_bias:
            out = out + self.recurrent_bias()[i * self.units:(i + 1) * self.units]
        return out

    def call(self, inputs, states, training=None):
        h_prev = states[0]
        x_z, x_r, x_h = self.gate_inputs(inputs)
        z = self.recurrent_activation(x_z + self.recurrent(h_prev, 0))
        r = self.recurrent_activation(x_r + self.recurrent(h_prev, 1))
        if self.reset_after:
            candidate = self.activation(x_h + r * self.recurrent(h_prev, 2))
        else:
            candidate = self.activation(x_h + self.recurrent(r * h_prev, 2))
        h = z * h_prev + (1.0 - z) * candidate
        return h, [h]

    def get_config(self):
        return dict(super().get_config(), reset_after=self.reset_after)


RNN_ARGS = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll", "time_major", "name",
             "trainable", "dtype", "input_shape", "batch_input_shape", "batch_size", "weights", "input_dim",
             "input_length", "activity_regularizer")


class CellLayer(RNN):
    """An RNN layer made from its cell's arguments (SimpleRNN, LSTM, GRU, ConvLSTM2D): Keras' config is flat."""

    cell_class = None

    def __init__(self, *args, **kwargs):
        layer_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in RNN_ARGS}
        cell = self.cell_class(*args, dtype=layer_kwargs.get("dtype"), **kwargs)
        super().__init__(cell, **layer_kwargs)

    @property
    def units(self):
        return self.cell.units

    def get_config(self):
        config = super().get_config()
        cell = dict(config.pop("cell")["config"])
        for key in ("name", "trainable", "dtype"):
            cell.pop(key, None)
        return dict(config, **cell)


class SimpleRNN(CellLayer):
    """SimpleRNN(units, activation='tanh', ...): a fully-connected RNN whose output is fed back."""

    cell_class = SimpleRNNCell


class LSTM(CellLayer):
    """LSTM(units, activation='tanh', recurrent_activation='hard_sigmoid', unit_forget_bias=True, ...)."""

    cell_class = LSTMCell


class GRU(CellLayer):
    """GRU(units, activation='tanh', recurrent_activation='hard_sigmoid', reset_after=False, ...)."""

    cell_class = GRUCell
