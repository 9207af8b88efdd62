"""TF1's tf.cond as TensorFlow writes it (Switch/Merge nodes: dropout and batch normalization on a `training`
placeholder, their gradients and moving-average updates; nested conds of two outputs) imports as ringflow's conds,
restores and trains on to the losses TensorFlow recorded (scripts/record_tf_files.py cond-graphs)."""
import json
import os

import numpy as np
import pytest

import trainer as tg
from trainer.framework.meta_graph import MetaGraphDef
from trainer.framework.node_def import GraphDef, NodeDef

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_graphs")


@pytest.mark.parametrize("kind, conds", [
    ("dropout_batch_norm", {"dropout/cond/Merge", "batch_normalization/cond/Merge"}),
    ("nested", {"cond/Merge", "cond/Merge_1", "cond/cond/Merge"})])
def test_a_graph_tensorflow_wrote_with_conds_trains_on_to_tensorflows_losses(kind, conds):
    with open(os.path.join(HERE, "cond_values.json")) as f:
        record = json.load(f)
    prefix = os.path.join(HERE, record[kind]["prefix"])
    with tg.Graph().as_default() as graph:
        saver = tg.train.import_meta_graph(prefix + ".meta")
        assert conds <= {op.name for op in graph.get_operations() if op.type == "Cond"}
        with tg.Session() as sess:
            saver.restore(sess, prefix)
            x = np.asarray(record["x"], np.float32)
            got = [sess.run(["loss:0", "train"], {"x:0": x, "training:0": t})[0] for t in record["training"]]
    np.testing.assert_allclose(got, record[kind]["losses"], rtol=2e-6)


def test_tf1_while_loop_nodes_are_named_as_what_ringflow_does_not_rebuild():
    nodes = [NodeDef(name="i", op="Placeholder"), NodeDef(name="while/Enter", op="Enter", input=["i"]),
             NodeDef(name="while/Merge", op="Merge", input=["while/Enter", "while/NextIteration"]),
             NodeDef(name="while/Switch", op="Switch", input=["while/Merge", "while/LoopCond"]),
             NodeDef(name="while/NextIteration", op="NextIteration", input=["while/Switch:1"])]
    with tg.Graph().as_default(), pytest.raises(NotImplementedError, match=r"while-loop nodes \['Enter', "
                                                                           r"'NextIteration'\]"):
        tg.train.import_meta_graph(MetaGraphDef(graph_def=GraphDef(node=nodes)))
