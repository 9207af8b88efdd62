"""tf.keras.experimental.SequenceFeatures: tf.feature_column's sequence columns of a features dict as (the sequence
input [batch, T, width], each row's length int64 [batch]), the first layer of a sequence model (an RNN) fed a dict
of SparseTensors by feature name."""
from ...feature_column.sequence_feature_column import sequence_columns, sequence_outputs
from .dense_features import FeatureLayer


class SequenceFeatures(FeatureLayer):
    """Each sequence column's [batch, T, width] tensor, in the order of the columns' names, concatenated on the last
    axis as tf.contrib.feature_column's sequence_input_layer does, with the rows' sequence lengths; the columns'
    variables are the layer's weights ("sequence_features/<column>/embedding_weights:0", as in TF)."""

    kind = "sequence (SparseTensor)"
    select = staticmethod(sequence_columns)

    def call(self, features):
        return self._through_columns(features, lambda: sequence_outputs(features, self._feature_columns,
                                                                        self.trainable))

    def compute_output_shape(self, input_shape):
        batch = next(iter(input_shape.values()))[0] if isinstance(input_shape, dict) else None
        return (batch, None, sum(column.width for column in self._feature_columns)), (batch,)
