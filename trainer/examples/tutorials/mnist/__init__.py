"""tensorflow.examples.tutorials.mnist: input_data.read_data_sets on local IDX files, and mnist, the model of
fully_connected_feed.py."""
