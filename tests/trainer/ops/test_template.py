"""tf.make_template: the first call creates variables in the template's scope, later calls share them."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)


def scale(x, factor):
    w = tg.get_variable("w", [2], initializer=tg.ones_initializer())
    return x * w * factor


def test_calls_share_the_first_calls_variables_and_templates_get_scopes_of_their_own():
    double = tg.make_template("scale", scale, factor=2.0)
    a, b = double(tg.constant([1.0, 2.0])), double(tg.constant([3.0, 4.0]))
    triple = tg.make_template("scale", scale, factor=3.0)
    c = triple(tg.constant([1.0, 1.0]))
    assert [v.name for v in tg.global_variables()] == ["scale/w:0", "scale_1/w:0"]
    assert double.variable_scope_name == "scale" and [v.name for v in double.trainable_variables] == ["scale/w:0"]
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        sess.run(tg.assign(double.variables[0], [10.0, 100.0]))
        got = sess.run([a, b, c])
    np.testing.assert_array_equal(got, [[20.0, 400.0], [60.0, 800.0], [3.0, 3.0]])


def test_scope_made_at_construction_and_new_trainable_variables_on_reuse_refused():
    template = tg.make_template("net", lambda x: x * tg.Variable(1.0), create_scope_now_=True)
    assert template.variable_scope_name == "net" and template.variables == []
    template(tg.constant(1.0))
    with pytest.raises(ValueError, match="Trainable variable created when calling a template after the first"):
        template(tg.constant(2.0))
    with pytest.raises(ValueError, match="needs a name"):
        tg.make_template(None, scale)
