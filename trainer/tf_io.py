"""tg.io: TF1's tf.io namespace. Today it holds gfile (tg.io.gfile is tg.gfile) and write_graph; TF1's tf.io ops
join it here.

Named tf_io.py, exported as tg.io, so no module of the package is called like the standard library's io.
"""
from .platform import gfile  # noqa: F401
from .framework.graph_io import write_graph  # noqa: F401
