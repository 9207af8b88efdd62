"""Each test starts on a new graph with Keras' session reset, and with Horovod initialized (one rank)."""
import pytest

import trainer.horovod.keras as hvd
from trainer.keras import backend as K


@pytest.fixture(autouse=True)
def fresh_keras():
    K.clear_session()
    hvd.init()
    yield
    K.clear_session()
