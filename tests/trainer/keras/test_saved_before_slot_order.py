"""Models an earlier ringflow saved (commit e66fc97, before its Keras optimizers kept TF's OptimizerV2 order)
load with their optimizer state mapped to today's order and train on as they did: the recorded loss is that
ringflow's after one more epoch. Nothing a user saved is lost, and nothing lands in the wrong slot."""
import json
import os

import numpy as np
import pytest

import trainer as tg

HERE = os.path.join(os.path.dirname(__file__), "fixtures")


@pytest.mark.parametrize("filename", ["adam.npz", "rmsprop.npz", "nadam.npz", "sgd.npz", "adam.h5", "rmsprop.h5"])
def test_an_earlier_ringflows_model_file_trains_on_as_it_did(filename):
    name, suffix = filename.split(".")
    if suffix == "h5":
        pytest.importorskip("h5py")
    with open(os.path.join(HERE, "before_slot_order.json")) as f:
        recorded = json.load(f)
    x, y = np.array(recorded["x"], np.float32), np.array(recorded["y"], np.float32)
    with tg.Graph().as_default():
        model = tg.keras.models.load_model(os.path.join(HERE, f"before_slot_order_{filename}"))
        model.fit(x, y, epochs=1, batch_size=8, shuffle=False, verbose=0)
        loss = model.evaluate(x, y, verbose=0)
    np.testing.assert_allclose(loss, recorded["h5"][name] if suffix == "h5" else recorded[name], rtol=2e-5)


def test_a_state_that_cannot_be_mapped_is_refused_with_what_to_do(tmp_path):
    data = dict(np.load(os.path.join(HERE, "before_slot_order_adam.npz")))
    data["optimizer_weight_5"] = data.pop("optimizer_weight_8")  # a state of the wrong length
    path = str(tmp_path / "damaged.npz")
    np.savez(path, **data)
    with tg.Graph().as_default(), pytest.raises(ValueError, match="earlier ringflow.*compile=False"):
        tg.keras.models.load_model(path)

