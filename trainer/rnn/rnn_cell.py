"""tg.nn.rnn_cell (TF1's tf.nn.rnn_cell): the cells, their wrappers and the LSTM state tuple."""
from .cells import BasicLSTMCell, BasicRNNCell, GRUCell, LSTMCell, LSTMStateTuple, RNNCell
from .wrappers import DeviceWrapper, DropoutWrapper, MultiRNNCell, ResidualWrapper

__all__ = ["BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUCell", "LSTMCell",
           "LSTMStateTuple", "MultiRNNCell", "RNNCell", "ResidualWrapper"]
