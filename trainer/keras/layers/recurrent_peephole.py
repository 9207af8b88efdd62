"""tf.keras.experimental.PeepholeLSTMCell: Keras' LSTMCell whose gates also see the cell state through three
diagonal (units,) "peephole" weights (Gers & Schmidhuber): the input and forget gates the previous cell state, the
output gate the new one."""
from .recurrent_cells import LSTMCell


class PeepholeLSTMCell(LSTMCell):
    """LSTMCell plus input_gate_, forget_gate_ and output_gate_peephole_weights (kernel_initializer), after its
    kernel, recurrent kernel and bias, as TF 1.15 orders them."""

    def build(self, input_shape):
        super().build(input_shape)
        for gate in ("input", "forget", "output"):
            setattr(self, f"{gate}_gate_peephole_weights",
                    self.add_weight(f"{gate}_gate_peephole_weights", (self.units,),
                                    initializer=self.kernel_initializer))
        self.built = True

    def call(self, inputs, states, training=None):
        h_prev, c_prev = states[0], states[1]
        x_i, x_f, x_c, x_o = self.gate_inputs(inputs)
        act, gate = self.activation, self.recurrent_activation
        i = gate(x_i + self.recurrent(h_prev, 0) + self.input_gate_peephole_weights * c_prev)
        f = gate(x_f + self.recurrent(h_prev, 1) + self.forget_gate_peephole_weights * c_prev)
        c = f * c_prev + i * act(x_c + self.recurrent(h_prev, 2))
        o = gate(x_o + self.recurrent(h_prev, 3) + self.output_gate_peephole_weights * c)
        h = o * act(c)
        return h, [h, c]

    def fused_sequence(self, steps, states):
        """None: the peepholes run step by step."""
        return None
