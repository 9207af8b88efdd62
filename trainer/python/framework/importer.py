"""tensorflow.python.framework.importer: tf.import_graph_def by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
