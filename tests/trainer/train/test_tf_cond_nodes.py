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
from trainer.train.meta_graph import read_meta_graph_file

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


def test_a_graph_tensorflow_wrote_with_conds_saves_again_for_tensorflow_and_ringflow(tmp_path):
    """ringflow's Saver writes the imported graph back (checked with TensorFlow by record_tf_files.py check):
    node names stay unique, TF's cond contexts (naming nodes that are gone) are left out, the dropout's draw runs
    only in its branch with its seeds, and ringflow imports the file again and trains on to TF's losses."""
    with open(os.path.join(HERE, "cond_values.json")) as f:
        record = json.load(f)
    prefix, saved = os.path.join(HERE, record["dropout_batch_norm"]["prefix"]), str(tmp_path / "again")
    with tg.Graph().as_default(), tg.Session() as sess:
        tg.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
        tg.train.Saver().save(sess, saved)
    meta = read_meta_graph_file(saved + ".meta")
    names = [node.name for node in meta.graph_def.node]
    assert len(names) == len(set(names)) and "cond_context" not in meta.collection_def
    nodes = {node.name: node for node in meta.graph_def.node}
    draw = "dropout/cond/dropout/random_uniform/RandomUniform"
    assert list(nodes[f"{draw}/shape"].input) == ["^dropout/cond/Merge/switch_t"]
    assert (nodes[f"{draw}/unit"].attr["seed"].i, nodes[f"{draw}/unit"].attr["seed2"].i) == (1, 1)
    with tg.Graph().as_default(), tg.Session() as sess:
        tg.train.import_meta_graph(saved + ".meta").restore(sess, saved)
        x = np.asarray(record["x"], np.float32)
        got = [sess.run(["loss:0", "train"], {"x:0": x, "training:0": t})[0] for t in record["training"]]
    np.testing.assert_allclose(got, record["dropout_batch_norm"]["losses"], rtol=2e-6)


def test_tf2_functional_control_flow_is_named_as_what_ringflow_does_not_rebuild():
    nodes = [NodeDef(name="p", op="Placeholder"), NodeDef(name="if", op="StatelessIf", input=["p"])]
    with tg.Graph().as_default(), pytest.raises(NotImplementedError, match=r"StatelessIf \(TF2's functional "
                                                                           r"control flow.*TF1's tf.cond"):
        tg.train.import_meta_graph(MetaGraphDef(graph_def=GraphDef(node=nodes)))
