"""tf.keras.optimizers.Ftrl against TF 1.15's OptimizerV2 Ftrl in graph mode (fixtures/keras_feature_layers.json,
recorded by fixtures/record_keras_feature_layers.py): values after steps, variables, config."""
import json
import os

import numpy as np
import pytest

import trainer as tg
from trainer import keras

with open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_feature_layers.json")) as f:
    ORACLE = json.load(f)
CASES = {"ftrl": {"learning_rate": 0.1},
         "ftrl_l1_l2": {"learning_rate": 0.5, "l1_regularization_strength": 0.3, "l2_regularization_strength": 0.2,
                        "learning_rate_power": -0.7, "initial_accumulator_value": 0.2},
         "ftrl_shrinkage": {"learning_rate": 0.2, "l2_shrinkage_regularization_strength": 0.1, "decay": 0.5}}


@pytest.mark.parametrize("case", sorted(CASES))
def test_ftrl_steps_variables_and_config_are_tfs(case):
    expected = ORACLE[case]
    with tg.Graph().as_default(), tg.Session() as session:
        var, other = tg.Variable([1.0, -2.0, 0.5], name="w"), tg.Variable([[0.3]], name="b")
        opt = keras.optimizers.Ftrl(**CASES[case])
        loss = tg.reduce_sum(tg.square(var * [1.0, 2.0, 3.0] - 1.0)) + tg.reduce_sum(other * other)
        train = opt.get_updates(loss, [var, other])
        session.run(tg.global_variables_initializer())
        for values in expected["values"]:
            session.run(train)
            np.testing.assert_allclose(np.concatenate([session.run(var), session.run(other).ravel()]), values,
                                       rtol=1e-5, atol=1e-7)
        assert [w.name for w in opt.weights] == expected["weights"]
        config = opt.get_config()
        tf_config = {k: v for k, v in expected["config"].items() if k != "beta"}  # beta came after TF 1.15
        assert config.keys() == tf_config.keys()
        for key, value in tf_config.items():
            assert config[key] == (pytest.approx(value, rel=1e-6) if isinstance(value, float) else value), key
        again = keras.optimizers.get({"class_name": "Ftrl", "config": config})
        assert isinstance(again, keras.optimizers.Ftrl) and again.get_config() == config


def test_ftrl_takes_tfs_positional_order_and_refuses_what_tf_refuses():
    opt = keras.optimizers.Ftrl(0.1, -0.5, 0.1, 0.0, 0.0, "mine", 0.3)
    assert (opt.get_config()["name"], opt.get_config()["l2_shrinkage_regularization_strength"]) == ("mine", 0.3)
    with pytest.raises(ValueError, match="learning_rate_power 0.5 needs to be negative or zero"):
        keras.optimizers.Ftrl(learning_rate_power=0.5)
    with pytest.raises(ValueError, match="initial_accumulator_value -1 needs to be positive or zero"):
        keras.optimizers.Ftrl(initial_accumulator_value=-1)
    assert isinstance(keras.optimizers.get("ftrl"), keras.optimizers.Ftrl)
