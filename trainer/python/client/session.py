"""tensorflow.python.client.session: tf.Session and tf.InteractiveSession by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
