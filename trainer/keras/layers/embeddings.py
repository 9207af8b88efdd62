"""Keras' Embedding: integer ids -> rows of an (input_dim, output_dim) matrix."""
from ...ops.gather_ops import gather
from .. import constraints, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import Layer
from ..utils.generic_utils import serialized


class Embedding(Layer):
    """Looks ids up in `embeddings` (initialized uniformly in ±0.05, Keras' 'uniform')."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", embeddings_regularizer=None,
                 activity_regularizer=None, embeddings_constraint=None, mask_zero=False, input_length=None,
                 **kwargs):
        if "input_shape" not in kwargs and "batch_input_shape" not in kwargs and input_length is not None:
            kwargs["input_shape"] = (input_length,) if isinstance(input_length, int) else tuple(input_length)
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero, self.input_length = mask_zero, input_length

    def build(self, input_shape):
        self.embeddings = self.add_weight("embeddings", (self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)
        self.built = True

    def call(self, inputs):
        ids = inputs if K.dtype(inputs) in ("int32", "int64") else K.cast(inputs, "int32")
        return gather(self.embeddings, ids)

    def compute_mask(self, inputs, mask=None):
        """mask_zero: id 0 is padding, masked for the layers after."""
        return K.not_equal(inputs, 0) if self.mask_zero else None

    def get_config(self):
        return dict(super().get_config(), input_dim=self.input_dim, output_dim=self.output_dim,
                    embeddings_initializer=serialized(initializers, self.embeddings_initializer),
                    embeddings_regularizer=serialized(regularizers, self.embeddings_regularizer),
                    embeddings_constraint=serialized(constraints, self.embeddings_constraint),
                    mask_zero=self.mask_zero, input_length=self.input_length)
