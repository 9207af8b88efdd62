"""tf.keras.datasets.cifar10: 32x32 colour images in 10 classes, from ~/.keras/datasets/cifar-10-batches-py/."""
from .cifar import load

DIRNAME = "cifar-10-batches-py"  # what Keras unpacks cifar-10-python.tar.gz into
TRAIN = [f"data_batch_{i}" for i in range(1, 6)]


def load_data():
    """((x_train, y_train), (x_test, y_test)): uint8 images [N, 32, 32, 3] and labels [N, 1]; never downloaded."""
    caller = "tf.keras.datasets.cifar10.load_data"
    return load(caller, DIRNAME, TRAIN, "labels"), load(caller, DIRNAME, ["test_batch"], "labels")
