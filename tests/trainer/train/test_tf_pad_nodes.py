"""Pads are written as TF's Pad, PadV2 and MirrorPad with their paddings (and PadV2's constant) as inputs, and
their gradients as TF's (a Slice, MirrorPadGrad); read as TensorFlow reads them, and by ringflow, they compute
what ringflow's ops compute. TensorFlow trains Keras' ResNet50 (ZeroPadding2D) on to ringflow's losses
(scripts/record_tf_files.py check-models)."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.train.tf_view import run_imported, tf_view

X = np.arange(12, dtype=np.float32).reshape(3, 4) / 4


@pytest.mark.parametrize("mode, value, tf_op", [("CONSTANT", 0, "Pad"), ("CONSTANT", 1.5, "PadV2"),
                                                ("REFLECT", 0, "MirrorPad"), ("SYMMETRIC", 0, "MirrorPad")])
@pytest.mark.parametrize("given", ["known", "tensor"])
def test_pads_and_their_gradients_are_tfs_and_read_back_alike(mode, value, tf_op, given):
    with tg.Graph().as_default() as g:
        x = tg.placeholder(tg.float32, [3, 4], name="x")
        paddings = [[1, 2], [2, 0]] if given == "known" else tg.placeholder_with_default([[1, 2], [2, 0]], [2, 2])
        y = tg.pad(x, paddings, mode=mode, constant_values=value)
        weights = tg.constant(np.linspace(-1, 1, 6 * 6, dtype=np.float32).reshape(6, 6))
        tg.identity(y, name="y")
        tg.identity(tg.gradients(tg.reduce_sum(y * weights), x)[0], name="dx")
        with tg.Session() as sess:
            want = sess.run(["y:0", "dx:0"], {x: X})
        graph_def = g.as_graph_def()
    nodes = {n.op: n for n in graph_def.node}
    assert tf_op in nodes and not {"paddings", "constant_values"} & set(nodes[tf_op].attr)
    assert len(nodes[tf_op].input) == (3 if tf_op == "PadV2" else 2)
    assert "PadGrad" not in nodes and ("MirrorPadGrad" if tf_op == "MirrorPad" else "Slice") in nodes
    for read in (graph_def, tf_view(graph_def)):
        got = run_imported(read, ["y:0", "dx:0"], {"x:0": X})
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
