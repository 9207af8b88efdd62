"""tensorflow.examples: the MNIST tutorials' input_data module (examples.tutorials.mnist.input_data)."""
