"""The graph as data: Graph, Operation, Tensor, dtypes and shapes, device specs, graph keys, the op registry and
the default-graph and default-session stacks (TF1 keeps both in framework/ops.py). Nothing here runs a graph."""
