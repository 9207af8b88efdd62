"""The whole-sequence LSTM family: dynamic_rnn over LSTM cells, which ringflow runs as one BlockLSTM op each way
(feature-major on the host), against TF's unfused while loop: outputs, final states and the gradients reaching the
inputs and the initial state, with peepholes, a cell clip, sequence lengths and time-major inputs.

The cells' weights are seeded uniform draws, the same as TF's (graph_seed and the initializer's seed).
"""
from .cases import call, init, t


def lstm_cell(units, **kwargs):
    return {"make": "nn.rnn_cell.LSTMCell", "args": [{"py": units}],
            "kwargs": dict(initializer=init("random_uniform", -0.6, 0.6, 7), **kwargs)}


def state(dtype, batch, units):
    return {"make": "nn.rnn_cell.LSTMStateTuple", "args": [t(dtype, (batch, units), salt=1),
                                                           t(dtype, (batch, units), salt=2)], "kwargs": {}}


def rnn(cell, dtype, shape, **kwargs):
    batch = shape[1] if kwargs.get("time_major") else shape[0]
    return dict(call("nn.dynamic_rnn", cell, t(dtype, shape), initial_state=state(dtype, batch, 5),
                     grad="grad_ys", **kwargs), graph_seed=1)


def cases():
    return {f"lstmt/{name}": case for name, case in [
        ("dynamic_rnn/float64", rnn(lstm_cell(5), "float64", (3, 6, 4))),
        ("dynamic_rnn/float32", rnn(lstm_cell(5, forget_bias=0.5), "float32", (3, 6, 4))),
        ("dynamic_rnn/peepholes_clip", rnn(lstm_cell(5, use_peepholes=True, cell_clip=0.4), "float64", (3, 6, 4))),
        ("dynamic_rnn/sequence_length", rnn(lstm_cell(5), "float64", (3, 6, 4), sequence_length=[6, 2, 4])),
        ("dynamic_rnn/time_major", rnn(lstm_cell(5), "float64", (6, 3, 4), time_major=True,
                                       sequence_length=[3, 5, 1])),
    ]}
