"""tensorflow.examples.tutorials: the MNIST tutorials' input_data module."""
