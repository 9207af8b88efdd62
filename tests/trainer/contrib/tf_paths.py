"""tf1_module(path): a module by TF 1.15's import path (tensorflow.contrib....), with ringflow installed as
`tensorflow` only while it is imported (and left installed if it was)."""
import importlib

from trainer import as_tensorflow


def tf1_module(path):
    already = as_tensorflow.is_installed()
    as_tensorflow.install(notice=False)
    try:
        return importlib.import_module(path)
    finally:
        if not already:
            as_tensorflow.uninstall()
