"""InputLayer and Input: a placeholder that starts a functional model's graph of layers."""
from .. import backend as K
from .base_layer import Layer, Node


class InputLayer(Layer):
    """A layer holding one placeholder ("input_1", ...) of shape batch_input_shape, or wrapping `input_tensor`."""

    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None, sparse=False, name=None,
                 ragged=False, **kwargs):
        batch_input_shape = kwargs.pop("batch_input_shape", None)
        if sparse or ragged:
            raise ValueError("sparse and ragged inputs are not available in ringflow; feed dense arrays")
        super().__init__(name=name or f"input_{K.get_uid('input')}", dtype=dtype or K.floatx(), **kwargs)
        if batch_input_shape is None:
            if input_shape is None and input_tensor is None:
                raise ValueError("An Input layer should be passed either a `batch_input_shape` or an "
                                 "`input_shape` (or an `input_tensor`)")
            batch_input_shape = K.int_shape(input_tensor) if input_shape is None \
                else (batch_size,) + tuple(input_shape)
        self.batch_input_shape = tuple(batch_input_shape)
        self.built = True
        self.is_placeholder = input_tensor is None
        if input_tensor is None:
            input_tensor = K.placeholder(shape=self.batch_input_shape, dtype=self.dtype, name=self.name)
        Node(self, [], [input_tensor], {})

    def get_config(self):
        return {"batch_input_shape": self.batch_input_shape, "dtype": self.dtype, "sparse": False, "ragged": False,
                "name": self.name}


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=False, tensor=None, ragged=False,  # noqa: N802
          **kwargs):
    """A Keras tensor: the placeholder of a new InputLayer, to build a functional Model from."""
    batch_shape = kwargs.pop("batch_shape", None)
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments to Input: {sorted(kwargs)}")
    if shape is None and batch_shape is None and tensor is None:
        raise ValueError("Please provide to Input either a `shape` or a `batch_shape` argument. Note that `shape` "
                         "does not include the batch dimension.")
    layer = InputLayer(input_shape=shape, batch_size=batch_size, name=name, dtype=dtype, sparse=sparse,
                       input_tensor=tensor, batch_input_shape=batch_shape, ragged=ragged)
    return layer.inbound_nodes[0].output_tensors[0]
