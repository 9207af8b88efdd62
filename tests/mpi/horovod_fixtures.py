"""Fixtures the Horovod test modules share: every test runs once per CPU backend, each on a fresh graph."""
import pytest

import allreduce
import trainer as tg
import trainer.horovod as hvd


@pytest.fixture(scope="module", params=["ring", "shm"], autouse=True)
def backend(request):
    hvd.shutdown()
    hvd.init(allreduce.create_communicator(request.param))
    yield request.param
    hvd.shutdown()


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()
