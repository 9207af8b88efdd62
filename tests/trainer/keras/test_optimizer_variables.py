"""Which variables tf.keras' optimizers make, when, under which names and in which order, with their weights and
configs, against TF 1.15's graph-mode OptimizerV2 (fixtures/keras_optimizer_variables.json, recorded by
fixtures/record_keras_optimizer_variables.py). Ranks of a Horovod job only broadcast the same variables if every
rank's optimizer makes the same ones at the same time, whether it came from load_model or from compile."""
import json
import os

import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras import backend as K

with open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_optimizer_variables.json")) as f:
    ORACLE = json.load(f)


def names(variables):
    return [v.name for v in variables]


def close(config, expected):
    assert config.keys() == expected.keys()
    for key, value in expected.items():
        assert config[key] == (pytest.approx(value, rel=1e-6) if isinstance(value, float) else value), key


@pytest.mark.parametrize("case", ORACLE["cases"], ids=[f"{c['class']}{c['kwargs'] or ''}" for c in ORACLE["cases"]])
def test_variables_appear_at_the_first_step_in_tfs_order_and_names(case):
    K.clear_session()
    opt = getattr(keras.optimizers, case["class"])(**case["kwargs"])
    assert names(tg.global_variables()) == case["after_construction"] == []
    close(opt.get_config(), case["config_before"])
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    model.compile(loss="mse", optimizer=opt)
    assert names(opt.weights) == case["weights_after_compile"] == []
    model.train_on_batch(np.ones((1, 3)), np.ones((1, 2)))
    assert names(tg.global_variables()) == case["after_fit"]
    assert names(opt.weights) == case["weights"]
    assert len(opt.get_weights()) == len(case["weights"]) and opt.get_weights()[0] == 1
    close(opt.get_config(), case["config_after"])


def test_reading_a_hyper_parameter_makes_them_all_where_it_is_read_and_iterations_when_read():
    K.clear_session()
    opt = keras.optimizers.Adam(0.5)
    assert K.get_value(opt.lr) == 0.5
    assert names(tg.global_variables()) == ORACLE["hyper_access"]["after_lr"]
    _ = opt.iterations
    assert names(tg.global_variables()) == ORACLE["hyper_access"]["after_iterations"]
    assert names(opt.weights) == ORACLE["hyper_access"]["weights"]


def test_a_hyper_parameter_set_before_it_is_a_variable_is_its_initial_value_and_set_after_is_assigned():
    K.clear_session()
    opt = keras.optimizers.SGD(momentum=0.5)
    opt.lr = 0.25
    assert opt.get_config()["learning_rate"] == 0.25 and not tg.global_variables()
    K.set_value(opt.momentum, 0.75)  # reading it made the variables
    opt.learning_rate = 0.125
    assert K.get_value(opt.lr) == 0.125 and opt.get_config()["momentum"] == 0.75


def test_set_weights_before_the_step_is_built_says_what_to_do():
    K.clear_session()
    with pytest.raises(ValueError, match=r"expecting 0 weights .*build the training step first"):
        keras.optimizers.Adam().set_weights([np.int64(3)])
