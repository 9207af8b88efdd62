"""tf.keras.layers.DenseFeatures: tf.feature_column's dense columns of a features dict as one [batch, width]
float32 tensor, the first layer of a model fed a dict by feature name (TF 1.15's structured-data idiom:
Sequential([DenseFeatures(columns), Dense(...)]) fit on a dataset of (dict, labels))."""
from ...feature_column import categorical_columns, columns as column_classes
from ...feature_column.feature_column import dense_columns
from ...framework import dtypes
from ...ops.array_ops import concat
from ...ops.scopes import variable_scope
from ...ops.variables import global_variables
from ..engine.base_layer import Layer


class FeatureLayer(Layer):
    """A Keras layer of feature columns over a dict of features by name: the columns' variables are made at the
    first call in a scope of the layer's name (made unique in the graph, so a model loaded beside the one saved gets
    its own), reused by the next ones, and become the layer's weights. Subclasses pick their columns (`select`) and
    build their output from them (`outputs`)."""

    kind = "feature"

    def __init__(self, feature_columns, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        self._feature_columns = self.select(feature_columns)
        self._scope = None

    def build(self, input_shape):
        self.built = True  # the variables come with the first call: the columns make them on the features

    def _through_columns(self, features, build):
        if not isinstance(features, dict):
            raise ValueError(f"Layer {self.name!r} ({type(self).__name__}) takes a dict of features by name, got "
                             f"{features!r}: feed a dict of {self.kind} features, or a Model built on a dict of "
                             "Inputs")
        before = set(global_variables())
        reuse = True if self._scope else None
        with variable_scope(self._scope or None, default_name=self.name, reuse=reuse) as scope:
            self._scope = scope
            result = build()
        for variable in global_variables():
            if variable not in before:
                (self._trainable_weights if variable.trainable else self._non_trainable_weights).append(variable)
        return result

    def get_config(self):
        return dict(super().get_config(), feature_columns=[serialize_column(c) for c in self._feature_columns])

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        return cls([deserialize_column(c) for c in config.pop("feature_columns")], **config)


class DenseFeatures(FeatureLayer):
    """Each column's dense tensor, in the order of the columns' names, concatenated as tf.feature_column's
    input_layer does; the columns' variables (embedding tables) are the layer's weights, named
    "<layer>/<column>/<variable>" ("dense_features/thal_embedding/embedding_weights:0") as in TF."""

    kind = "dense"
    select = staticmethod(dense_columns)

    def call(self, features, cols_to_output_tensors=None):
        def build():
            outputs = []
            for column in self._feature_columns:
                with variable_scope(column_classes.scope_name(column)):
                    outputs.append(column.dense(features, self.trainable))
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = outputs[-1]
            return concat(outputs, 1)
        return self._through_columns(features, build)

    def compute_output_shape(self, input_shape):
        batch = next(iter(input_shape.values()))[0] if isinstance(input_shape, dict) else None
        return (batch, sum(column.width for column in self._feature_columns))


def serialize_column(column):
    """{"class_name", "config"} of a feature column, as TF names its classes; its fields JSON values."""
    def value(field, v):
        if isinstance(v, tuple) and hasattr(v, "_fields"):
            return serialize_column(v)
        if callable(v):
            raise NotImplementedError(f"The feature column {column!r} has a function as its {field} (a Python "
                                      "object, not a config): keep the model's code and save its weights with "
                                      "save_weights")
        if field == "dtype":
            return dtypes.as_dtype(v).name
        return [x.decode() if isinstance(x, bytes) else x for x in v] if isinstance(v, tuple) else v
    return {"class_name": type(column).__name__,
            "config": {field: value(field, v) for field, v in zip(column._fields, column)}}


def deserialize_column(spec):
    """The feature column serialize_column described."""
    cls = getattr(column_classes, spec["class_name"], getattr(categorical_columns, spec["class_name"], None))
    if not isinstance(cls, type) or not hasattr(cls, "_fields"):
        raise ValueError(f"Unknown feature column class {spec['class_name']!r} in a DenseFeatures config")

    def value(field, v):
        if isinstance(v, dict) and "class_name" in v:
            return deserialize_column(v)
        if field == "dtype" and v is not None:
            return dtypes.as_dtype(v)
        if isinstance(v, list):  # a string column keeps its vocabulary as bytes, as TF's string tensors hold it
            return tuple(x.encode() if isinstance(x, str) and text else x for x in v)
        return v
    text = spec["config"].get("dtype") == "string"
    return cls(**{field: value(field, v) for field, v in spec["config"].items()})
