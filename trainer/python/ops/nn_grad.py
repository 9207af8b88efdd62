"""tensorflow.python.ops.nn_grad: TF's gradient registrations, which its tests import for their side effect;
ringflow registers each op's gradient with the op, so there is nothing here."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__)
