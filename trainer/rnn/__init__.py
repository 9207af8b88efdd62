"""Recurrent networks: tf.nn.rnn_cell's cells and wrappers, and static/dynamic/bidirectional RNNs."""
