"""Network: a graph of layers from Keras inputs to outputs (the functional API), or a subclass whose call() uses
layers assigned as attributes. A network is itself a layer: calling it on new tensors runs its layers again.
"""
import json

from ...framework.graph import get_default_graph
from ...train.saver import Saver
from .. import backend as K
from ..utils.generic_utils import from_config, known_objects, to_list
from ..utils.layer_utils import print_summary
from . import hdf5_format
from .base_layer import LAYERS, Layer, call_masked, flat_inputs, history, mask_of, nested_inputs
from .input_layer import InputLayer


def walk(outputs):
    """The nodes that lead to `outputs`, each after the nodes it takes inputs from, and their layers in Keras'
    order: deepest first (inputs), ties in the order a walk from the outputs first meets them."""
    nodes, met, seen = [], [], set()

    def visit(tensor):
        layer, node_index, _ = history(tensor)
        node = layer.inbound_nodes[node_index]
        if id(node) in seen:
            return
        if layer not in met:
            met.append(layer)
        for t in node.input_tensors:
            visit(t)
        seen.add(id(node))
        nodes.append(node)
    for t in outputs:
        visit(t)
    depth = {}  # node -> its longest path to an output, in nodes
    for node in reversed(nodes):
        here = depth.setdefault(id(node), 0)
        for t in node.input_tensors:
            layer, node_index, _ = history(t)
            inbound = id(layer.inbound_nodes[node_index])
            depth[inbound] = max(depth.get(inbound, 0), here + 1)
    layer_depth = {}
    for node in nodes:
        key = id(node.outbound_layer)
        layer_depth[key] = max(layer_depth.get(key, 0), depth[id(node)])
    layers = sorted(met, key=lambda layer: (-layer_depth[id(layer)], met.index(layer)))
    return nodes, layers


def _unique(items):
    found = {}
    for item in items:
        found.setdefault(id(item), item)
    return list(found.values())


class Network(Layer):
    """Model(inputs, outputs) for the functional API; Model() subclassed with layers as attributes and call()."""

    def __init__(self, *args, **kwargs):
        object.__setattr__(self, "_tracked", [])
        inputs = kwargs.pop("inputs", args[0] if args else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        super().__init__(name=kwargs.pop("name", None), trainable=kwargs.pop("trainable", True), **kwargs)
        self.inputs, self.outputs, self.network_nodes, self._layers = [], [], [], []
        self._nested_outputs = outputs
        if inputs is not None:
            self._init_graph_network(inputs, outputs)

    def __setattr__(self, name, value):
        # a subclassed model's layers are the ones it keeps as public attributes, alone or in a list
        for item in value if isinstance(value, (list, tuple)) and not name.startswith("_") else [value]:
            if isinstance(item, Layer) and item not in self._tracked:
                self._tracked.append(item)
        object.__setattr__(self, name, value)

    def _init_graph_network(self, inputs, outputs):
        self._nested_outputs = outputs
        self.inputs, self.outputs = flat_inputs(inputs), to_list(outputs)
        for x in self.inputs:
            layer = history(x)[0]
            if not isinstance(layer, InputLayer):
                raise ValueError(f"Input tensors to a Model must come from `tf.keras.Input`; {x.name!r} came "
                                 f"from layer {layer.name!r}")
        nodes, layers = walk(self.outputs)
        self.network_nodes = nodes
        self._layers = layers
        self.input_names = [history(x)[0].name for x in self.inputs]
        self.output_names = [history(x)[0].name for x in self.outputs]
        self.built = True

    @property
    def is_graph_network(self):
        return bool(self.outputs) and not self._tracked

    @property
    def layers(self):
        return list(self._layers) if self._layers else list(self._tracked)

    def get_layer(self, name=None, index=None):
        """A layer by name or by index."""
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}; the model has {[layer.name for layer in self.layers]}")

    # --- weights, losses, updates ---------------------------------------------------------------------------
    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        # the layers' weights, then those the model made itself with add_weight (a subclassed model's), as TF 1.15
        return _unique([w for layer in self.layers for w in layer.trainable_weights] + super().trainable_weights)

    @property
    def non_trainable_weights(self):
        inner = [w for layer in self.layers for w in layer.non_trainable_weights]
        if not self.trainable:
            inner = [w for layer in self.layers for w in layer.trainable_weights] + inner
        return _unique(inner + super().non_trainable_weights)

    @property
    def weights(self):
        return _unique([w for layer in self.layers for w in layer.weights] + super().weights)

    def get_weights(self):
        """Every layer's weights in layer order (kernel then bias for Dense), as numpy arrays."""
        return K.batch_get_value(self.weights)

    def set_weights(self, weights):
        """Assign numpy arrays to `weights`, in get_weights' order."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"Model {self.name!r} has {len(params)} weights, set_weights got {len(weights)}")
        for p, w in zip(params, weights):
            if K.int_shape(p) != tuple(w.shape):
                raise ValueError(f"Weight {p.name!r} has shape {K.int_shape(p)}, set_weights got {w.shape}")
        K.batch_set_value(list(zip(params, weights)))

    @property
    def losses(self):
        return _unique(list(self._losses) + [x for layer in self.layers for x in layer.losses])

    @property
    def updates(self):
        if not self.trainable:
            return []
        return _unique(list(self._updates) + [u for layer in self.layers for u in layer.updates])

    @property
    def stateful(self):
        return any(getattr(layer, "stateful", False) for layer in self.layers)

    @property
    def state_updates(self):
        """The updates of stateful layers (their states' assignments), which predict and evaluate run too."""
        return _unique([u for layer in self.layers if getattr(layer, "stateful", False) for u in layer.updates])

    def reset_states(self):
        """Reset the states of every stateful layer (zeros)."""
        for layer in self.layers:
            if hasattr(layer, "reset_states") and getattr(layer, "stateful", False):
                layer.reset_states()

    # --- calling -----------------------------------------------------------------------------------------
    def call(self, inputs, training=None, mask=None):
        """Run the network's layers on `inputs` (as many tensors as the model's inputs)."""
        if not self.is_graph_network:
            raise NotImplementedError(f"Model {self.name!r} was not built from inputs and outputs: a subclassed "
                                      "Model must define call(inputs)")
        computed = {id(x): y for x, y in zip(self.inputs, flat_inputs(inputs))}
        graph = get_default_graph()
        for node in self.network_nodes:
            layer = node.outbound_layer
            if isinstance(layer, InputLayer):
                continue
            args = [computed[id(t)] for t in node.input_tensors]
            kwargs = dict(node.arguments)
            if training is not None and "training" in _params(layer.call):
                kwargs.setdefault("training", training)
            with graph.name_scope(layer.name):
                out = call_masked(layer, nested_inputs(node, args), kwargs)
            for t, y in zip(node.output_tensors, to_list(out)):
                computed[id(t)] = y
        outputs = [computed[id(t)] for t in self.outputs]
        self._output_masks = [mask_of(t) for t in outputs]  # for compute_mask, as Keras caches them
        return outputs[0] if len(outputs) == 1 and not isinstance(self._nested_outputs, list) else outputs

    def compute_mask(self, inputs, mask):
        """The masks the layers gave the outputs of the latest call: a model passes its inner masks on."""
        masks = getattr(self, "_output_masks", None) or [None]
        return masks[0] if len(masks) == 1 else masks

    def build(self, input_shape):
        if self.is_graph_network:
            self.built = True
            return
        shapes = input_shape if isinstance(input_shape, list) else [input_shape]
        placeholders = [K.placeholder(shape=s) for s in shapes]
        self.call(placeholders[0] if len(placeholders) == 1 else placeholders)
        self.built = True

    def compute_output_shape(self, input_shape):
        shapes = [K.int_shape(t) for t in self.outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    # --- configuration ------------------------------------------------------------------------------------
    def _node_key(self, layer, node):
        own = [n for n in layer.inbound_nodes if n in self.network_nodes]
        return own.index(node)

    def _tensor_ref(self, tensor):
        layer, node_index, tensor_index = history(tensor)
        return [layer.name, self._node_key(layer, layer.inbound_nodes[node_index]), tensor_index]

    def _node_config(self, node):
        refs = [self._tensor_ref(t) + [node.arguments] for t in node.input_tensors]
        return dict(zip(node.keys, refs)) if node.keys is not None else refs  # a dict input by its names

    def get_config(self):
        if not self.is_graph_network:
            raise NotImplementedError(f"Model {self.name!r} is subclassed: its layers and call() are Python code "
                                      "that has no config; save its weights with save_weights instead")
        layers = []
        for layer in self.layers:
            nodes = [self._node_config(node) for node in layer.inbound_nodes
                     if node in self.network_nodes and node.input_tensors]
            layers.append({"name": layer.name, "class_name": type(layer).__name__, "config": layer.get_config(),
                           "inbound_nodes": nodes})
        return {"name": self.name, "layers": layers,
                "input_layers": [self._tensor_ref(t) for t in self.inputs],
                "output_layers": [self._tensor_ref(t) for t in self.outputs]}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The model `config` describes, with new layers (new weights) wired as it says."""
        known = known_objects(LAYERS, custom_objects)
        made, pending = {}, []
        for spec in config["layers"]:
            if spec["class_name"] not in known:
                raise ValueError(f"Unknown layer: {spec['class_name']}; pass custom_objects={{name: class}} for "
                                 "layers of your own")
            layer_cls = known[spec["class_name"]]
            layer = from_config(layer_cls, spec["config"], custom_objects)
            made[spec["name"]] = layer
            pending.extend((layer, node) for node in spec["inbound_nodes"])
        outputs_of = {name: [n.output_tensors for n in layer.inbound_nodes] for name, layer in made.items()}
        while pending:
            progress = False
            for item in list(pending):
                layer, node = item
                keys = sorted(node) if isinstance(node, dict) else None
                node = [node[k] for k in keys] if keys is not None else node
                refs = [(name, i, j) for name, i, j, *_ in node]
                if all(len(outputs_of[name]) > i for name, i, _ in refs):
                    args = [outputs_of[name][i][j] for name, i, j in refs]
                    kwargs = node[0][3] if node and len(node[0]) > 3 else {}
                    layer(dict(zip(keys, args)) if keys is not None else args[0] if len(args) == 1 else args,
                          **kwargs)
                    outputs_of[layer.name] = [n.output_tensors for n in layer.inbound_nodes]
                    pending.remove(item)
                    progress = True
            if not progress:
                raise ValueError(f"Model config {config['name']!r} cannot be wired: layers "
                                 f"{sorted({layer.name for layer, _ in pending})} wait on inputs no layer makes")
        inputs = [outputs_of[name][i][j] for name, i, j in config["input_layers"]]
        outputs = [outputs_of[name][i][j] for name, i, j in config["output_layers"]]
        return cls(inputs=inputs, outputs=outputs, name=config["name"])

    def to_json(self, **kwargs):
        """The model's architecture as Keras' JSON ({"class_name", "config", "keras_version", "backend"})."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config(),
                           "keras_version": "2.2.4-tf", "backend": "tensorflow"}, default=_jsonable, **kwargs)

    def summary(self, line_length=None, positions=None, print_fn=None):
        """Print Keras' table of layers, output shapes and parameter counts."""
        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by calling `build()` or "
                             "calling `fit()` with some data, or specify an `input_shape` argument in the first "
                             "layer(s) for automatic build.")
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn or print)

    # --- weights on disk ------------------------------------------------------------------------------------
    def save_weights(self, filepath, overwrite=True, save_format=None):
        """Write the weights as a TF checkpoint at `filepath` (tf.train.Saver's files), or in Keras' HDF5 layout
        for a .h5 path or save_format='h5' (needs h5py)."""
        if save_format == "h5" or str(filepath).endswith(hdf5_format.SUFFIXES):
            with hdf5_format.open_file(filepath, "w") as f:
                hdf5_format.save_weights_to_group(f, self.layers)
            return
        Saver(var_list=self._by_name()).save(K.get_session(), filepath, write_meta_graph=False)

    def load_weights(self, filepath, by_name=False):
        """Read weights written by save_weights: a TF checkpoint (matched by layer position and weight name, as TF's
        object-based checkpoints match, so another instance of the architecture reads it) or an HDF5 file
        (Keras' too; matched by order among the layers with weights, or by layer name with by_name=True)."""
        if hdf5_format.is_hdf5(filepath) or str(filepath).endswith(hdf5_format.SUFFIXES):
            with hdf5_format.open_file(filepath, "r") as f:
                hdf5_format.load_weights_from_group(f["model_weights"] if "model_weights" in f else f, self.layers,
                                                    by_name)
            return
        Saver(var_list=self._by_name()).restore(K.get_session(), filepath)

    def checkpoint_keys(self):
        """{key: weight} as save_weights writes them: TF's object-based checkpoint keys."""
        return self._by_name()

    def _by_name(self):
        # TF's object-based keys (layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE): a new instance of the
        # architecture, whose layers Keras names dense_2, dense_3, ..., restores what an earlier one saved
        keys = {}
        for i, layer in enumerate(layer for layer in self.layers if layer.weights):
            for w in layer.weights:
                attribute = w.op.name[len(layer.name) + 1:] if w.op.name.startswith(layer.name + "/") else \
                    w.op.name.rsplit("/", 1)[-1]
                keys[f"layer_with_weights-{i}/{attribute}/.ATTRIBUTES/VARIABLE_VALUE"] = w
        return keys


def _params(fn):
    return fn.__code__.co_varnames[:fn.__code__.co_argcount + fn.__code__.co_kwonlyargcount]


def _jsonable(value):
    if getattr(value, "ndim", 0):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "name"):
        return value.name
    raise TypeError(f"Cannot write {value!r} into a model config: give layers JSON-friendly arguments")

