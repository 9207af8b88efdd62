"""tf.resource_loader: the data files that sit beside a program's source, found from the calling file's folder as
TF finds them outside a Bazel build (ringflow has no runfiles tree)."""
import inspect
import os
import sys


def _caller_folder(depth):
    return os.path.dirname(inspect.getfile(sys._getframe(depth + 1)))


def get_data_files_path():
    """The folder of the file that calls it."""
    return _caller_folder(1)


def get_path_to_datafile(path):
    """`path` joined to the folder of the file that calls it."""
    return os.path.join(_caller_folder(1), path)


def get_root_dir_with_all_resources():
    """The folder above the nearest `.runfiles` folder up from this module's (a Bazel build's data root), else
    this module's folder, as TF answers outside Bazel."""
    folders = [get_data_files_path()]
    while True:
        if ".runfiles" in os.path.basename(folders[-1]):
            return folders[-2] if len(folders) > 1 else folders[0]
        parent = os.path.dirname(folders[-1])
        if parent == folders[-1]:
            return folders[0]
        folders.append(parent)


def load_resource(path):
    """The bytes of `path`, relative to this module's folder (TF's: relative to its own); IOError when absent."""
    with open(get_path_to_datafile(path), "rb") as f:
        return f.read()


def readahead_file_path(path, readahead="128M"):
    """`path` itself: like TF, ringflow reads files without a readahead cache."""
    del readahead
    return path
