"""tf.Module: names and name scopes as TF gives them, and the variables and submodules found through attributes in
TF's order (TensorFlow 2.15's tf.compat.v1 gave the names and orders asserted here)."""
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)


class Dense(tg.Module):
    def __init__(self, n, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tg.Variable(tg.ones([2, n]), name="w")
            self.b = tg.Variable(tg.zeros([n]), name="b", trainable=False)

    @tg.Module.with_name_scope
    def __call__(self, x):
        return tg.matmul(x, self.w) + self.b


class MLP(tg.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(3), Dense(1, name="out")]
        self.extra = {"z": tg.Variable(1.0, name="z")}
        self.again = self.layers[0]  # reached twice, listed once


def test_variables_and_submodules_in_tfs_order_under_unique_scopes():
    model, other = MLP(), MLP()
    assert model.name == "mlp" and [s.name for s in model.submodules] == ["dense", "out"]
    assert [v.name for v in model.variables] == ["z:0", "dense/b:0", "dense/w:0", "out/b:0", "out/w:0"]
    assert [v.name for v in model.trainable_variables] == ["z:0", "dense/w:0", "out/w:0"]
    assert isinstance(model.variables, tuple) and other.layers[0].w.name == "dense_1/w:0"
    y = model.layers[1](tg.ones([4, 2]))
    assert y.name.startswith("out/") and y.shape == (4, 1)


def test_module_names_must_be_identifiers():
    with pytest.raises(ValueError, match="'bad name' is not a valid module name"):
        tg.Module(name="bad name")
    assert tg.Module().name == "module" and MLP().name_scope is not None
