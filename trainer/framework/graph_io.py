"""tf.train.write_graph / tf.io.write_graph: a GraphDef (or any message, a MetaGraphDef) to a file, as TF1's
graph_io writes it: protobuf text with floats as Python prints them, or the binary message."""
import os

from ..platform.atomic_file import atomic_write


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Write the graph (a Graph, or a GraphDef) to "<logdir>/<name>", making logdir; returns the path."""
    graph_def = graph_or_graph_def
    if hasattr(graph_def, "as_graph_def"):
        graph_def = graph_def.as_graph_def()
    if not hasattr(graph_def, "SerializeToString"):
        raise TypeError(f"write_graph takes a Graph or a GraphDef, got {type(graph_or_graph_def).__name__}: "
                        "pass graph or graph.as_graph_def()")
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    if as_text:
        with atomic_write(path, "w", encoding="utf-8") as f:
            f.write(graph_def.to_text(float_format=""))
    else:
        with atomic_write(path, "wb") as f:
            f.write(graph_def.SerializeToString())
    return path
