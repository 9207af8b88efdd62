"""Each Keras test starts on a new graph with Keras' counters and session reset (K.clear_session)."""
import pytest

from trainer.keras import backend as K


@pytest.fixture(autouse=True)
def fresh_keras():
    K.clear_session()
    yield
    K.clear_session()
