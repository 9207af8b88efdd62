"""tensorflow.examples.tutorials.mnist.input_data: TF1's MNIST tutorial reader, which is, as in TF1,
tf.contrib.learn's datasets.mnist (on local IDX files; nothing is downloaded)."""
from ....contrib.learn.python.learn.datasets.mnist import (SOURCE_URL, TEST_IMAGES, TEST_LABELS, TRAIN_IMAGES,
                                                           TRAIN_LABELS, DataSet, Datasets, dense_to_one_hot,
                                                           load_mnist, read_data_sets)

__all__ = ["SOURCE_URL", "TEST_IMAGES", "TEST_LABELS", "TRAIN_IMAGES", "TRAIN_LABELS", "DataSet", "Datasets",
           "dense_to_one_hot", "load_mnist", "read_data_sets"]
