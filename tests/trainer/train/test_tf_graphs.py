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
