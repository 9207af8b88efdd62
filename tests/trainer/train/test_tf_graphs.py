"""A SavedModel real TensorFlow wrote (scripts/record_tf_files.py tf-graphs), whose graph holds ops in TF's own
form: ringflow's loader rebuilds them (Const inputs as attrs, Cast's DstT, TF's ParseExampleV2 of dense,
variable-length and sequence features) and computes what TensorFlow computed."""
import json
import os

import numpy as np
import pytest

import trainer as tg

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_graphs")


@pytest.fixture(scope="module")
def recorded():
    with open(os.path.join(HERE, "values.json")) as f:
        return json.load(f)


def test_a_savedmodel_tensorflow_wrote_computes_what_tensorflow_computed(recorded):
    examples = np.array([bytes.fromhex(e) for e in recorded["examples"]], dtype=object)
    with tg.Graph().as_default() as graph, tg.Session() as sess:
        meta = tg.saved_model.loader.load(sess, ["serve"], os.path.join(HERE, "saved_model"))
        signature = meta.signature_def["serving_default"]
        assert graph.get_operation_by_name("ParseExample/ParseExampleV2").type == "ParseExampleV2"
        names = {key: info.name for key, info in signature.outputs.items()}
        got = sess.run(names, {signature.inputs["examples"].name: examples})
    assert sorted(got) == sorted(recorded["outputs"])
    for key, want in recorded["outputs"].items():
        np.testing.assert_allclose(got[key], np.asarray(want), rtol=1e-6, err_msg=key)
    assert got["best"].dtype == np.int64 and got["joined"].shape == (3, 6)


@pytest.mark.parametrize("kind", ["cnn", "resource_mlp"])
def test_a_training_graph_tensorflow_saved_trains_on_as_in_tensorflow(kind):
    # "save in one process, import_meta_graph + restore and go on training in another", on graphs TF built: its
    # gradient ops (Conv2DBackpropInput/Filter with size tensors, MaxPoolGrad, AvgPoolGrad, StridedSliceGrad,
    # ConcatOffset, BroadcastGradientArgs, ...) and, for resource variables, VarHandleOp and ResourceApply*
    with open(os.path.join(HERE, "train_values.json")) as f:
        recorded = json.load(f)
    prefix = os.path.join(HERE, recorded[kind]["prefix"])
    feed = {"x:0": np.asarray(recorded["x"], np.float32), "y:0": np.asarray(recorded["y"])}
    with tg.Graph().as_default(), tg.Session() as sess:
        saver = tg.train.import_meta_graph(prefix + ".meta")
        saver.restore(sess, prefix)
        losses = [sess.run(["train", "loss:0"], feed)[1] for _ in range(3)]
        assert sess.run(tg.train.get_global_step()) == 6
    np.testing.assert_allclose(losses, recorded[kind]["losses"], rtol=2e-6)
