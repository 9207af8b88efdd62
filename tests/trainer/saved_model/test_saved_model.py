"""tf.saved_model: simple_save and the builder write saved_model.pb and variables/ as TensorFlow does;
loader.load reads them back, and reads the SavedModel real TensorFlow wrote."""
import json
import os
import pathlib

import numpy as np
import pytest

import trainer as tg

FIXTURES = pathlib.Path(__file__).parents[1] / "train" / "fixtures" / "tf_files"  # scripts/record_tf_files.py


def _model():
    x = tg.placeholder(tg.float32, [None, 2], name="x")
    w = tg.Variable(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), name="w")
    return x, tg.matmul(x, w, name="y")


# the export directory as a str, as bytes (TF's serving examples pass tf.compat.as_bytes(path)) or as a path
FORMS = {"str": str, "bytes": lambda p: tg.compat.as_bytes(str(p)), "path": lambda p: p}


@pytest.mark.parametrize("form", FORMS)
def test_simple_save_then_load_serves_the_signature(tmp_path, form):
    export = tmp_path / "export"
    with tg.Graph().as_default():
        x, y = _model()
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            path = tg.saved_model.simple_save(sess, FORMS[form](export), {"x": x}, {"y": y})
    assert path == str(export / "saved_model.pb") and tg.saved_model.maybe_saved_model_directory(str(export))
    assert sorted(os.listdir(export / "variables")) == ["variables.data-00000-of-00001", "variables.index"]
    with tg.Session(graph=tg.Graph()) as sess:
        meta = tg.saved_model.loader.load(sess, [tg.saved_model.tag_constants.SERVING], FORMS[form](export))
        signature = meta.signature_def[tg.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
        assert signature.method_name == "tensorflow/serving/predict"
        y = tg.saved_model.utils.get_tensor_from_tensor_info(signature.outputs["y"], sess.graph)
        np.testing.assert_array_equal(sess.run(y, {signature.inputs["x"].name: [[1.0, 1.0]]}), [[4.0, 6.0]])


def test_builder_tags_main_op_and_errors(tmp_path):
    export = str(tmp_path / "b")
    with tg.Graph().as_default():
        x, y = _model()
        counter = tg.Variable(0, name="counter")
        bump = tg.assign_add(counter, 1, name="bump")
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            builder = tg.saved_model.builder.SavedModelBuilder(export)
            with pytest.raises(AssertionError, match="add_meta_graph_and_variables"):
                builder.add_meta_graph(["x"])
            info = tg.saved_model.build_tensor_info(y)
            signature = tg.saved_model.build_signature_def({"x": tg.saved_model.build_tensor_info(x)}, {"y": info},
                                                           "custom")
            builder.add_meta_graph_and_variables(sess, ["train"], {"s": signature}, main_op=bump)
            builder.add_meta_graph(["serve", "gpu"])
            builder.save()
    with pytest.raises(AssertionError, match="already exists, and isn't empty"):
        tg.saved_model.builder.SavedModelBuilder(export)
    with tg.Session(graph=tg.Graph()) as sess:
        meta = tg.saved_model.loader.load(sess, ["train"], export)
        assert meta.signature_def["s"].method_name == "custom" and sess.run("counter:0") == 1  # main_op ran
    with tg.Session(graph=tg.Graph()) as sess:
        tg.saved_model.loader.load(sess, ["gpu", "serve"], export)
        with pytest.raises(RuntimeError, match=r"tags \['eval'\] could not be found.*\[\['train'\], \['serve'"):
            tg.saved_model.loader.load(tg.Session(graph=tg.Graph()), ["eval"], export)


def test_loads_the_saved_model_real_tensorflow_wrote():
    record = json.loads((FIXTURES / "values.json").read_text())
    with tg.Session(graph=tg.Graph()) as sess:
        meta = tg.saved_model.loader.load(sess, ["serve"], str(FIXTURES / "saved_model"))
        signature = meta.signature_def["serving_default"]
        got = sess.run(signature.outputs["y"].name, {signature.inputs["x"].name: record["input"]})
        np.testing.assert_array_equal(got, np.asarray(record["output"], np.float32))
        for name, value in record["values"].items():
            np.testing.assert_array_equal(sess.run(name + ":0"), np.asarray(value, record["dtypes"][name]))
