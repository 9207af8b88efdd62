"""Sequential: a Model made of a stack of single-input layers, built as soon as its input shape is known (an
input_shape on the first layer, or the first data it meets)."""
import numpy as np

from .. import backend as K
from ..utils.generic_utils import from_config, known_objects
from .base_layer import LAYERS, Layer, history
from .input_layer import Input, InputLayer
from .training import Model


def input_dtype(array):
    """The dtype of the Input that takes `array`: Keras' float type for floats, string for text."""
    kind = np.asarray(array).dtype.kind
    return K.floatx() if kind == "f" else "string" if kind in "USO" else np.asarray(array).dtype.name


class Sequential(Model):
    """Sequential(layers=None, name=None): add(layer) appends, pop() removes the last."""

    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        self._stack, self._chain = [], []  # the layers, and the tensors between them once built
        for layer in layers or []:
            self.add(layer)

    @property
    def layers(self):
        return [layer for layer in self._stack if not isinstance(layer, InputLayer)]

    def add(self, layer):
        """Append `layer`; the model is (re)built when the input shape is known."""
        if not isinstance(layer, Layer):
            raise TypeError(f"The added layer must be an instance of class Layer. Found: {layer!r}")
        if isinstance(layer, InputLayer):
            self._stack = [layer] + self.layers
            self._rebuild()
            return
        if not self._stack and hasattr(layer, "batch_input_shape"):
            # Keras names the input after the first layer: "dense_input"
            self._stack.append(InputLayer(batch_input_shape=layer.batch_input_shape, dtype=layer.dtype,
                                          name=layer.name + "_input"))
        self._stack.append(layer)
        if self._chain:
            self._chain.append(layer(self._chain[-1]))
            self._init_graph_network(self._chain[0], self._chain[-1])
            self._layers = list(self._stack)
        elif isinstance(self._stack[0], InputLayer):
            self._rebuild()

    def pop(self):
        """Remove the last layer."""
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        self._stack.pop()
        if self._chain:
            self._chain.pop()
        if len(self._chain) > 1:
            self._init_graph_network(self._chain[0], self._chain[-1])
            self._layers = list(self._stack)
        else:
            self._chain, self.inputs, self.outputs, self._layers, self.network_nodes = [], [], [], [], []
            self.built = False

    def _rebuild(self):
        self._chain = [self._stack[0].inbound_nodes[0].output_tensors[0]]
        for layer in self._stack[1:]:
            self._chain.append(layer(self._chain[-1]))
        if len(self._chain) > 1:
            self._init_graph_network(self._chain[0], self._chain[-1])
            self._layers = list(self._stack)

    def build(self, input_shape=None):
        """Build on inputs of `input_shape` (batch dimension included)."""
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        self._stack.insert(0, InputLayer(batch_input_shape=tuple(input_shape), name=f"input_{K.get_uid('input')}"))
        self._rebuild()

    def _build_from(self, x):
        if isinstance(x, dict):  # a features dict for a first layer that takes one (DenseFeatures): an Input each
            self._build_on_features({name: {"shape": np.shape(a)[1:], "dtype": input_dtype(a)}
                                     for name, a in x.items()})
            return
        first = x[0] if isinstance(x, (list, tuple)) else next(iter(x.values())) if isinstance(x, dict) else x
        shape = np.shape(first)
        self.build((None,) + tuple(shape[1:]))
        if self._is_compiled:
            self._build_loss()

    def _build_on_features(self, inputs):
        """Build on a dict of Inputs, {name: {"shape", "dtype"}}, for a first layer that takes a dict."""
        self._chain = [{name: Input(tuple(spec["shape"]), name=name, dtype=spec["dtype"])
                        for name, spec in sorted(inputs.items())}]
        for layer in self.layers:
            self._chain.append(layer(self._chain[-1]))
        self._init_graph_network(self._chain[0], self._chain[-1])
        self._layers = list(self._stack)
        if self._is_compiled:
            self._build_loss()

    def call(self, inputs, training=None, mask=None):
        if self.outputs:
            return super().call(inputs, training=training, mask=mask)
        for layer in self.layers:
            inputs = layer(inputs)
        return inputs

    def predict_proba(self, x, batch_size=32, verbose=0):
        """The predictions, checked to be probabilities (Keras warns when they leave [0, 1])."""
        return self.predict(x, batch_size=batch_size, verbose=verbose)

    def predict_classes(self, x, batch_size=32, verbose=0):
        """The arg max of each prediction, or prediction > 0.5 for one unit, as int32."""
        proba = self.predict(x, batch_size=batch_size, verbose=verbose)
        return proba.argmax(axis=-1) if proba.shape[-1] > 1 else (proba > 0.5).astype("int32")

    def get_config(self):
        layers = [{"class_name": type(layer).__name__, "config": layer.get_config()} for layer in self.layers]
        if layers and self.inputs and isinstance(self._stack[0], InputLayer) and \
                "batch_input_shape" not in layers[0]["config"]:
            # built by build() or by the first data: the shape goes with the first layer, so loading rebuilds it
            layers[0]["config"]["batch_input_shape"] = tuple(self._stack[0].batch_input_shape)
        config = {"name": self.name, "layers": layers}
        if self.inputs and not isinstance(self._stack[0], InputLayer):  # built on a features dict: its Inputs
            config["feature_inputs"] = {history(t)[0].name: {"shape": K.int_shape(t)[1:], "dtype": t.dtype.name}
                                        for t in self.inputs}
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        known = known_objects(LAYERS, custom_objects)
        specs = config["layers"] if isinstance(config, dict) else config
        model = cls(name=config.get("name") if isinstance(config, dict) else None)
        for spec in specs:
            if spec["class_name"] not in known:
                raise ValueError(f"Unknown layer: {spec['class_name']}; pass custom_objects={{name: class}}")
            model.add(from_config(known[spec["class_name"]], spec["config"], custom_objects))
        if isinstance(config, dict) and config.get("feature_inputs"):
            model._build_on_features(config["feature_inputs"])
        return model

