"""Model.summary()'s table, in Keras' layout: 65 columns for a chain of layers, 98 with "Connected to" otherwise;
the source inputs of a Keras tensor; kernels converted between Theano's and TensorFlow's flips."""
import numpy as np

from .. import backend as K


def history(tensor):
    """(layer, node index, tensor index) of a Keras tensor: Keras' own mark on it (engine/base_layer.py's Node
    sets it; utils stands below engine, so it reads the mark rather than importing the engine)."""
    return tensor._keras_history


def count_params(weights):
    return int(sum(np.prod([d for d in w.shape]) for w in {id(w): w for w in weights}.values()))


def _row(fields, positions):
    line = ""
    for field, end in zip(fields, positions):
        line = (line + str(field))[:end]
        line += " " * (end - len(line))
    return line


def _is_chain(model):
    nodes = [n for layer in model.layers for n in layer.inbound_nodes if n in model.network_nodes]
    return all(len(n.input_tensors) <= 1 and len(n.output_tensors) == 1 for n in nodes) and \
        all(len([n for n in layer.inbound_nodes if n in model.network_nodes]) == 1 for layer in model.layers)


def print_summary(model, line_length=None, positions=None, print_fn=print):
    """Print the layers, their output shapes and parameter counts, then the totals."""
    chain = _is_chain(model)
    line_length = line_length or (65 if chain else 98)
    positions = positions or ([.45, .85, 1.] if chain else [.33, .55, .67, 1.])
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    header = ["Layer (type)", "Output Shape", "Param #"] + ([] if chain else ["Connected to"])
    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    print_fn(_row(header, positions))
    print_fn("=" * line_length)
    for i, layer in enumerate(model.layers):
        try:
            shape = layer.output_shape
        except AttributeError:
            shape = "multiple"
        fields = [f"{layer.name} ({type(layer).__name__})", shape, layer.count_params()]
        connections = [] if chain else ["{}[{}][{}]".format(*_where(t))
                                        for n in layer.inbound_nodes if n in model.network_nodes
                                        for j, t in enumerate(n.input_tensors)]
        print_fn(_row(fields + ([connections[0] if connections else ""] if not chain else []), positions))
        for extra in connections[1:]:
            print_fn(_row(["", "", "", extra], positions))
        print_fn(("=" if i == len(model.layers) - 1 else "_") * line_length)
    trainable = count_params(model.trainable_weights)
    non_trainable = count_params(model.non_trainable_weights)
    print_fn(f"Total params: {trainable + non_trainable:,}")
    print_fn(f"Trainable params: {trainable:,}")
    print_fn(f"Non-trainable params: {non_trainable:,}")
    print_fn("_" * line_length)


def _where(tensor):
    layer, node_index, tensor_index = history(tensor)
    return layer.name, node_index, tensor_index


def get_source_inputs(tensor, layer=None, node_index=None):
    """The input tensors (outputs of Input) that `tensor` is computed from, in order, each once."""
    if not hasattr(tensor, "_keras_history"):
        return tensor
    if layer is None:
        layer, node_index, _ = history(tensor)
    if not layer.inbound_nodes:
        return [tensor]
    node = layer.inbound_nodes[node_index or 0]
    if not node.input_tensors:  # an InputLayer's node
        return node.output_tensors
    found = []
    for x in node.input_tensors:
        for source in get_source_inputs(x):
            if not any(source is f for f in found):
                found.append(source)
    return found


def convert_kernel(kernel):
    """A convolution kernel with its spatial axes reversed (Theano's and TensorFlow's conventions differ so)."""
    kernel = np.asarray(kernel)
    return np.copy(kernel[(slice(None, None, -1),) * (kernel.ndim - 2) + (slice(None), slice(None))])


def convert_all_kernels_in_model(model):
    """Reverse the spatial axes of every Conv1D/2D/3D and Conv2DTranspose kernel of `model`, in place."""
    flipped = ("Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose")
    K.batch_set_value([(layer.kernel, convert_kernel(K.get_value(layer.kernel))) for layer in model.layers
                       if type(layer).__name__ in flipped])
