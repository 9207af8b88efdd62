"""The names ringflow lacks, in every module that answers for them: one exception (NotInRingflow, both a
NotImplementedError and an AttributeError) raised by one helper, naming the module, the name and what to do."""
import ast
import importlib
import pathlib

import pytest

import trainer.horovod.unsupported
import trainer.unsupported
from trainer.unsupported import NotInRingflow, missing_names

ROOT = pathlib.Path(trainer.unsupported.__file__).resolve().parent

# module: (its TF1 spelling, a name it lacks with a reason, words of that reason)
MODULES = {
    "trainer": ("tf", "py_function", "eager tensors"),
    "trainer.compat.v1": ("tf.compat.v1", "RaggedTensor", "ragged tensors"),
    "trainer.config": ("tf.config", None, None),
    "trainer.config.experimental": ("tf.config.experimental", None, None),
    "trainer.contrib": ("tf.contrib", "crf", "random fields"),
    "trainer.contrib.estimator": ("tf.contrib.estimator", None, None),
    "trainer.contrib.factorization": ("tf.contrib.factorization", None, None),
    "trainer.contrib.framework": ("tf.contrib.framework", None, None),
    "trainer.contrib.feature_column": ("tf.contrib.feature_column", None, None),
    "trainer.contrib.layers": ("tf.contrib.layers", None, None),
    "trainer.contrib.learn": ("tf.contrib.learn", "DNNLinearCombinedClassifier",
                              "tf.estimator.DNNLinearCombinedClassifier"),
    "trainer.contrib.learn.python.learn.preprocessing": ("tf.contrib.learn.python.learn.preprocessing", None, None),
    "trainer.contrib.learn.python.learn.datasets": ("tf.contrib.learn.python.learn.datasets", "make_dataset",
                                                    "numpy"),
    "trainer.contrib.losses": ("tf.contrib.losses", "metric_learning", "metric-learning losses"),
    "trainer.contrib.metrics": ("tf.contrib.metrics", None, None),
    "trainer.contrib.rnn": ("tf.contrib.rnn", None, None),
    "trainer.contrib.seq2seq": ("tf.contrib.seq2seq", None, None),
    "trainer.contrib.slim": ("tf.contrib.slim", "nets", "model zoo"),
    "trainer.data": ("tf.data", "DatasetSpec", "TypeSpecs"),
    "trainer.data.experimental": ("tf.data.experimental", "to_variant", "not a variant tensor"),
    "trainer.data.experimental.service": ("tf.data.experimental.service", "distribute", "tf.data service is TF2's"),
    "trainer.estimator": ("tf.estimator", "WarmStartSettings", "Scaffold"),
    "trainer.feature_column": ("tf.feature_column", None, None),
    "trainer.horovod": ("hvd", "ProcessSet", "a subset of the ranks"),
    "trainer.horovod.keras": ("hvd.keras", "ProcessSet", "a subset of the ranks"),
    "trainer.image": ("tf.image", "encode_jpeg", "encode_png"),
    "trainer.keras": ("tf.keras", None, None),
    "trainer.keras.applications": ("tf.keras.applications", "EfficientNetB0", "ResNet50"),
    "trainer.keras.backend": ("tf.keras.backend", None, None),
    "trainer.keras.datasets": ("tf.keras.datasets", None, None),
    "trainer.keras.experimental": ("tf.keras.experimental", None, None),
    "trainer.keras.layers": ("tf.keras.layers", None, None),
    "trainer.keras.preprocessing": ("tf.keras.preprocessing", None, None),
    "trainer.keras.preprocessing.sequence": ("tf.keras.preprocessing.sequence", None, None),
    "trainer.keras.utils": ("tf.keras.utils", None, None),
    "trainer.linalg": ("tf.linalg", "LinearOperatorToeplitz", "dense matrix"),
    "trainer.lookup": ("tf.lookup", None, None),
    "trainer.math.special": ("tf.math.special", "bessel_j0", "bessel_i0"),
    "trainer.metrics": ("tf.metrics", None, None),
    "trainer.nn": ("tf.nn", "ctc_beam_search_decoder", "ctc_greedy_decoder"),
    "trainer.python.autograph": ("tf.python.autograph", "to_graph", "tf.while_loop"),
    "trainer.python.framework.graph_util": ("tf.python.framework.graph_util", None, None),
    "trainer.python.framework.ops": ("tf.python.framework.ops", None, None),
    "trainer.quantization": ("tf.quantization", "quantize", "quantized dtypes"),
    "trainer.sparse": ("tf.sparse", None, None),
    "trainer.strings": ("tf.strings", None, None),
    "trainer.train": ("tf.train", "sdca_optimizer", "FtrlOptimizer"),
    "trainer.train.experimental": ("tf.train.experimental", "enable_mixed_precision_graph_rewrite",
                                   "float16 graph rewrite"),
}


def modules_with_getattr():
    """Every module of trainer/ whose top level defines or assigns __getattr__."""
    found = set()
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            names = [node.name] if isinstance(node, ast.FunctionDef) else \
                [t.id for t in node.targets if isinstance(t, ast.Name)] if isinstance(node, ast.Assign) else []
            if "__getattr__" in names:
                parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
                found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_the_table_covers_every_module_that_answers_for_missing_names():
    assert modules_with_getattr() == set(MODULES)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_an_unknown_name_raises_the_one_exception_naming_module_and_name(module):
    shown = MODULES[module][0]
    mod = importlib.import_module(module)
    with pytest.raises(NotInRingflow) as info:
        getattr(mod, "no_such_name")
    assert isinstance(info.value, NotImplementedError) and isinstance(info.value, AttributeError)
    assert f"{shown}.no_such_name is not available in ringflow" in str(info.value)
    assert f"module {module!r} has no attribute 'no_such_name'" in str(info.value)
    assert not hasattr(mod, "no_such_name") and getattr(mod, "no_such_name", 7) == 7
    with pytest.raises(ImportError, match="no_such_name"):
        exec(f"from {module} import no_such_name", {})


@pytest.mark.parametrize("module", sorted(m for m, (_, name, _) in MODULES.items() if name))
def test_a_name_ringflow_knows_it_lacks_says_why(module):
    shown, name, words = MODULES[module]
    with pytest.raises(NotInRingflow, match=rf"{shown}\.{name} is not available in ringflow \(.*{words}"):
        getattr(importlib.import_module(module), name)


def test_the_horovod_name_is_the_same_class():
    assert trainer.horovod.unsupported.NotInRingflow is NotInRingflow


def test_what_the_module_has_closes_the_message():
    lacks = missing_names("trainer.contrib.rnn", have="it has LSTMCell", reasons={"Old": "gone: use New"})
    with pytest.raises(NotInRingflow) as info:
        lacks("Old")
    assert str(info.value) == "tf.contrib.rnn.Old is not available in ringflow (gone: use New); it has LSTMCell"
