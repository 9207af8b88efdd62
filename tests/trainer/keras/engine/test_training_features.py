"""compile's training features against graph-mode tf.keras' fit histories, recorded with the initial weights by
tests/trainer/keras/fixtures/record_keras_training.py: weighted_metrics (named weighted_<metric>), timestep weights
(sample_weight_mode='temporal'), masks under losses and metrics, class_weight on one-hot and binary targets, 'acc' and
'ce' resolved by the loss, target_tensors. Metrics are running means over the epoch, weighted by sample weights and
masks, as TF 1.15's stateful metrics are."""
import json
from pathlib import Path

import numpy as np
import pytest

from trainer import keras
from trainer.keras import backend as K

FIXTURE = json.loads((Path(__file__).parent.parent / "fixtures" / "keras_training.json").read_text())


def dense_model(inputs, units, activation=None, masking=False):
    x = keras.Input(inputs)
    h = keras.layers.Masking()(x) if masking else x
    return keras.Model(x, keras.layers.Dense(units, activation=activation)(h))


def two_heads():
    x = keras.Input((3,))
    h = keras.layers.Dense(4, activation="tanh")(x)
    return keras.Model(x, [keras.layers.Dense(2, name="values")(h),
                           keras.layers.Dense(3, activation="softmax", name="probs")(h)])


MODELS = {
    "weighted_metrics": lambda: dense_model((3,), 3, "softmax"),
    "temporal": lambda: dense_model((5, 3), 2),
    "masked_temporal": lambda: dense_model((5, 3), 2, masking=True),
    "masked_samplewise": lambda: dense_model((5, 3), 2, masking=True),
    "class_weight_one_hot": lambda: dense_model((3,), 3, "softmax"),
    "class_weight_binary": lambda: dense_model((3,), 1, "sigmoid"),
    "multi_output": two_heads,
    "sparse_accuracy": lambda: dense_model((3,), 4, "softmax"),
}


def as_arrays(value):
    """A recorded array, or (a list of differently shaped ones) the arrays of several outputs."""
    try:
        return np.asarray(value, np.float32)
    except ValueError:
        return [np.asarray(v, np.float32) for v in value]


def tf1_losses(case, batch_logs):
    """TF 1.15's batch losses from TF 2.15's: TF 2.15 divides a masked loss by the unmasked entries, TF 1.15 by all
    of them (the masked cases are recorded at learning rate 0, so the batches are the same each epoch)."""
    valid = np.any(np.asarray(case["x"]) != 0, axis=-1)
    starts = list(range(0, len(valid), 8))
    fractions = [valid[s:s + 8].mean() for s in starts] * 2
    sizes = [len(valid[s:s + 8]) for s in starts]
    losses = [log["loss"] * f for log, f in zip(batch_logs, fractions)]
    epochs = [np.dot(losses[i * len(sizes):(i + 1) * len(sizes)], sizes) / len(valid) for i in range(2)]
    return losses, epochs


@pytest.mark.parametrize("name", sorted(MODELS))
def test_fit_history_equals_graph_mode_tf_keras(name):
    case = FIXTURE[name]
    model = MODELS[name]()
    model.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    model.compile(keras.optimizers.SGD(case["lr"]), **case["compile"])
    fit = dict(case["fit"])
    if "class_weight" in fit:
        fit["class_weight"] = {int(k): v for k, v in fit["class_weight"].items()}
    if "sample_weight" in fit:
        weights = fit["sample_weight"]
        fit["sample_weight"] = [np.asarray(w) for w in weights] if len(model.outputs) > 1 else np.asarray(weights)
    batch_logs = []
    logger = keras.callbacks.LambdaCallback(
        on_batch_end=lambda batch, logs: batch_logs.append({k: logs[k] for k in model.metrics_names}))
    history = model.fit(as_arrays(case["x"]), as_arrays(case["y"]), batch_size=8, epochs=2, shuffle=False,
                        verbose=0, callbacks=[logger], **fit)
    want_history, want_batches = dict(case["history"]), [dict(log) for log in case["batch_logs"]]
    if name.startswith("masked"):
        losses, want_history["loss"] = tf1_losses(case, want_batches)
        for log, loss in zip(want_batches, losses):
            log["loss"] = loss
    assert model.metrics_names == case["metrics_names"]
    assert sorted(history.history) == sorted(want_history)
    for key, want in want_history.items():
        np.testing.assert_allclose(history.history[key], want, rtol=2e-6, atol=1e-7, err_msg=key)
    for step, (got, want) in enumerate(zip(batch_logs, want_batches)):
        for key in want:
            np.testing.assert_allclose(got[key], want[key], rtol=2e-6, atol=1e-7, err_msg=f"batch {step} {key}")
    for got, want in zip(model.get_weights(), case["final_weights"]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_target_tensors_feed_the_loss_without_y():
    case = FIXTURE["target_tensors"]
    x, y = np.asarray(case["x"], np.float32), np.asarray(case["y"], np.float32)
    model = dense_model((3,), 2)
    model.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    model.compile(keras.optimizers.SGD(0.1), "mse", metrics=["mae"], target_tensors=[K.constant(y)])
    history = model.fit(x, batch_size=8, epochs=2, shuffle=False, verbose=0)
    assert model.metrics_names == case["metrics_names"]
    for key, want in case["history"].items():
        np.testing.assert_allclose(history.history[key], want, rtol=2e-6, err_msg=key)
    # TF 1.15's metrics keep fit's last epoch until train_on_batch resets them after its batch
    np.testing.assert_allclose(model.train_on_batch(x), case["train_on_batch"], rtol=2e-6)


def test_weights_that_do_not_fit_say_what_to_pass():
    model = dense_model((5, 3), 2)
    model.compile("sgd", "mse", sample_weight_mode="temporal")
    x, y = np.ones((4, 5, 3), np.float32), np.ones((4, 5, 2), np.float32)
    with pytest.raises(ValueError, match="pass a 2D sample_weight array"):
        model.fit(x, y, sample_weight=np.ones(4), verbose=0)
    with pytest.raises(ValueError, match=r"shape \(4, 3\) for an input with shape \(4, 5, 2\)"):
        model.fit(x, y, sample_weight=np.ones((4, 3)), verbose=0)
    with pytest.raises(ValueError, match="class_weight` not supported for 3\\+ dimensional targets"):
        model.fit(x, y, class_weight={0: 1.0}, verbose=0)
    flat = dense_model((3,), 3, "softmax")
    with pytest.raises(ValueError, match="needs at least 3 dimensions"):
        flat.compile("sgd", "mse", sample_weight_mode="temporal")
    flat.compile("sgd", "categorical_crossentropy")
    with pytest.raises(ValueError, match="specify sample_weight_mode='temporal'"):
        flat.fit(np.ones((4, 3)), np.eye(3)[[0, 1, 2, 0]], sample_weight=np.ones((4, 2)), verbose=0)
    with pytest.raises(ValueError, match=r"The classes \{2\} exist in the data but not in `class_weight`"):
        flat.fit(np.ones((4, 3)), np.eye(3)[[0, 1, 2, 0]], class_weight={0: 1.0, 1: 2.0}, verbose=0)


def test_epoch_values_are_python_floats_as_keras_prints_them():
    model = dense_model((3,), 2, "softmax")
    model.compile("sgd", "sparse_categorical_crossentropy", metrics=["acc"], weighted_metrics=["acc"])
    x, y = np.ones((4, 3), np.float32), np.array([0, 1, 0, 1])
    values = model.evaluate(x, y, verbose=0)
    assert [type(v) for v in values] == [float] * 3 and "np." not in repr(values)
    assert {type(v[0]) for v in model.fit(x, y, verbose=0).history.values()} == {float}
