"""tf.keras.datasets.cifar100: 32x32 colour images in 100 fine (or 20 coarse) classes, from
~/.keras/datasets/cifar-100-python/."""
from .cifar import load

DIRNAME = "cifar-100-python"  # what Keras unpacks cifar-100-python.tar.gz into


def load_data(label_mode="fine"):
    """((x_train, y_train), (x_test, y_test)): uint8 images [N, 32, 32, 3] and labels [N, 1]; never downloaded."""
    if label_mode not in ("fine", "coarse"):
        raise ValueError(f'`label_mode` must be one of `"fine"`, `"coarse"`, got {label_mode!r}')
    caller = "tf.keras.datasets.cifar100.load_data"
    key = f"{label_mode}_labels"
    return load(caller, DIRNAME, ["train"], key), load(caller, DIRNAME, ["test"], key)
