"""Model.summary()'s table, in Keras' layout: 65 columns for a chain of layers, 98 with "Connected to" otherwise."""
import numpy as np

from ..engine.base_layer import history


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
