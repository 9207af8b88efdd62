"""tensorflow.python.ops.resource_variable_ops: TF's resource variables (ringflow's variables) by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
