"""Where tf.keras.datasets finds its files: Keras' cache, ~/.keras/datasets/<subdir>/<name> (/tmp/.keras when the
home directory is not writable, as Keras falls back), or `name` itself when it is an absolute path.

Keras downloads a missing file; ringflow never downloads, so a missing file is an error naming where to put it.
"""
import os

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def cached_path(caller, name, subdir="datasets"):
    """The local path of dataset file `name`, or FileNotFoundError saying where to put it and where it is from."""
    bases = [os.path.join(os.path.expanduser("~"), ".keras"), os.path.join("/tmp", ".keras")]
    candidates = [os.path.join(base, subdir, os.path.expanduser(name)) for base in bases]
    for path in candidates:
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(
        f"{caller}: {candidates[0]!r} does not exist, and ringflow never downloads data sets. Put the file there "
        f"(Keras fetches it from {ORIGIN}{os.path.basename(name)}), or pass the path of your copy")
