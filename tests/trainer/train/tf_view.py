"""A GraphDef as TensorFlow reads it, run by ringflow: the tests of TF's node forms read ringflow's exports through
TF's ops alone, to see that the forms compute what ringflow's ops compute."""
import trainer as tg


def tf_view(graph_def):
    """The GraphDef without the "_ringflow" attrs ringflow's import reads (the forms it keeps, the nodes it skips)."""
    out = tg.GraphDef()
    for node in graph_def.node:
        kept = out.node.add()
        kept.CopyFrom(node)
        for key in [k for k in kept.attr if k.startswith("_ringflow")]:
            kept.attr.pop(key)
    return out


def run_imported(graph_def, fetches, feed=None):
    """`fetches` of `graph_def` imported into a new graph, run once with `feed` (names)."""
    with tg.Graph().as_default():
        tg.import_graph_def(graph_def, name="")
        with tg.Session() as sess:
            return sess.run(fetches, feed)
