"""tf.resource_loader: data files found beside the calling source file, as TF finds them outside Bazel."""
import os

import pytest

import trainer as tg
from trainer.platform import resource_loader

HERE = os.path.dirname(os.path.abspath(__file__))


def test_paths_are_relative_to_the_calling_file():
    assert tg.resource_loader is resource_loader
    assert resource_loader.get_data_files_path() == HERE
    assert resource_loader.get_path_to_datafile("data/x.txt") == os.path.join(HERE, "data/x.txt")
    assert resource_loader.readahead_file_path("x.txt", readahead="1M") == "x.txt"


def test_the_resource_root_is_beside_the_module_outside_a_runfiles_tree():
    assert resource_loader.get_root_dir_with_all_resources() == os.path.dirname(resource_loader.__file__)


def test_load_resource_reads_bytes_beside_the_module_and_fails_as_open_does():
    own = os.path.basename(resource_loader.__file__)
    assert resource_loader.load_resource(own).startswith(b'"""tf.resource_loader')
    with pytest.raises(FileNotFoundError, match="no/such/file.txt"):
        resource_loader.load_resource("no/such/file.txt")
