"""tf.keras.experimental.SequenceFeatures: tf.feature_column's sequence columns of a features dict as (the sequence
input [batch, T, width], each row's length int64 [batch]), the first layer of a sequence model (an RNN) fed a dict
of SparseTensors by feature name."""
from ...feature_column.sequence_feature_column import sequence_columns, sequence_outputs
from ...ops.scopes import variable_scope
from ...ops.variables import global_variables
from ..engine.base_layer import Layer
from .dense_features import deserialize_column, serialize_column


class SequenceFeatures(Layer):
    """Each sequence column's [batch, T, width] tensor, in the order of the columns' names, concatenated on the last
    axis as tf.contrib.feature_column's sequence_input_layer does, with the rows' sequence lengths; the columns'
    variables are the layer's weights ("sequence_features/<column>/embedding_weights:0", as in TF)."""

    def __init__(self, feature_columns, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        self._feature_columns = sequence_columns(feature_columns)
        self._scope = None

    def build(self, input_shape):
        self.built = True  # the variables come with the first call: the columns make them on the features

    def call(self, features):
        if not isinstance(features, dict):
            raise ValueError(f"Layer {self.name!r} (SequenceFeatures) takes a dict of features by name, got "
                             f"{features!r}: feed a dict of SparseTensors")
        before = set(global_variables())
        reuse = True if self._scope else None
        with variable_scope(self._scope or None, default_name=self.name, reuse=reuse) as scope:
            self._scope = scope
            result = sequence_outputs(features, self._feature_columns, self.trainable)
        for variable in global_variables():
            if variable not in before:
                (self._trainable_weights if variable.trainable else self._non_trainable_weights).append(variable)
        return result

    def compute_output_shape(self, input_shape):
        batch = next(iter(input_shape.values()))[0] if isinstance(input_shape, dict) else None
        return (batch, None, sum(column.width for column in self._feature_columns)), (batch,)

    def get_config(self):
        return dict(super().get_config(), feature_columns=[serialize_column(c) for c in self._feature_columns])

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        return cls([deserialize_column(c) for c in config.pop("feature_columns")], **config)
