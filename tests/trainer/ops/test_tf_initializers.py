"""tf.initializers: TF1's short names are the very tg.*_initializer classes, he_* and lecun_* are variance scaling,
and its op makers run the variables' and tables' initializers."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)

SAME = {"constant": tg.constant_initializer, "zeros": tg.zeros_initializer, "ones": tg.ones_initializer,
        "random_normal": tg.random_normal_initializer, "random_uniform": tg.random_uniform_initializer,
        "truncated_normal": tg.truncated_normal_initializer, "glorot_uniform": tg.glorot_uniform_initializer,
        "glorot_normal": tg.glorot_normal_initializer, "orthogonal": tg.orthogonal_initializer,
        "uniform_unit_scaling": tg.uniform_unit_scaling_initializer,
        "variance_scaling": tg.variance_scaling_initializer, "global_variables": tg.global_variables_initializer,
        "local_variables": tg.local_variables_initializer, "variables": tg.variables_initializer,
        "tables_initializer": tg.tables_initializer}


@pytest.mark.parametrize("name", sorted(SAME))
def test_short_names_are_tf1s_objects(name):
    assert getattr(tg.initializers, name) is SAME[name]


@pytest.mark.parametrize("name, scale, uniform", [("he_normal", 2.0, False), ("he_uniform", 2.0, True),
                                                  ("lecun_normal", 1.0, False), ("lecun_uniform", 1.0, True)])
def test_he_and_lecun_scale_the_variance_by_fan_in(name, scale, uniform):
    initializer = getattr(tg.initializers, name)(seed=4)
    with tg.Session() as sess:
        values = sess.run(initializer([400, 300]))
    assert values.std() == pytest.approx(np.sqrt(scale / 400), rel=0.03)
    if uniform:
        assert np.abs(values).max() <= np.sqrt(3 * scale / 400)
    else:
        assert np.abs(values).max() <= 2 * np.sqrt(scale / 400) / 0.87962566103423978


def test_the_op_makers_initialize_what_they_name():
    v = tg.Variable(1.0)
    local = tg.get_local_variable("counter", [], initializer=tg.zeros_initializer())
    ops = [tg.initializers.variables([v]), tg.initializers.local_variables(), tg.initialize_variables([v])]
    with tg.Session() as sess:
        sess.run(ops)
        assert sess.run([v, local]) == [1.0, 0.0]
    assert local in tg.local_variables() and local not in tg.global_variables() + tg.trainable_variables()
