"""A training step of every model, and the distributed optimizer at one rank, on the strict device stand-in:
bitwise the CPU's values in float64 (the stand-in runs numpy underneath, so any difference is a kernel that
took another path on a device, and any numpy call on a device array fails outright)."""
import numpy as np
import pytest
from mpi4py import MPI

import allreduce
import models
import trainer as tg
from tests.trainer import strict_device

# name -> (task, features per sample, labels maker); cnn needs 28x28 images
DATA = {"linear": (models.Task("regression", 1), (6,), lambda rng, n: rng.standard_normal(n)),
        "logistic": (models.Task("classes", 3), (6,), lambda rng, n: rng.integers(0, 3, n)),
        "mlp": (models.Task("classes", 3), (6,), lambda rng, n: rng.integers(0, 3, n)),
        "multilabel": (models.Task("multilabel", 4), (6,), lambda rng, n: (rng.random((n, 4)) < 0.5) * 1.0),
        "cnn": (models.Task("classes", 10), (784,), lambda rng, n: rng.integers(0, 10, n))}
OPTIMIZERS = {"sgd": lambda: tg.train.GradientDescentOptimizer(0.1),
              "momentum": lambda: tg.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
              "adam": lambda: tg.train.AdamOptimizer(0.01)}


def train(name, device, optimizer="adam", steps=2, distributed=False, batch=8):
    """Loss per step and every variable after `steps` steps of model `name` on `device`."""
    task, shape, make_labels = DATA[name]
    rng = np.random.default_rng(3)
    xs = rng.standard_normal((steps, batch, *shape))
    ys = np.stack([make_labels(rng, batch) for _ in range(steps)])
    with tg.Graph().as_default():
        features = tg.placeholder(tg.float64, [None, *shape])
        labels = tg.placeholder(tg.int64 if task.kind == "classes" else tg.float64,
                                [None] if task.kind != "multilabel" else [None, task.num_outputs])
        hidden = {"hidden": (5, 4)} if "hidden" in models.hparams(name) else {}
        spec = models.get(name)(features, labels, task, seed=1, **hidden)
        opt = OPTIMIZERS[optimizer]()
        if distributed:
            opt = tg.DistributedOptimizer(opt, communicator=allreduce.create_communicator("mpi", comm=MPI.COMM_SELF))
        step = opt.minimize(spec.loss, global_step=tg.train.get_or_create_global_step())
        with tg.Session(device=device) as sess:
            sess.run(tg.global_variables_initializer())
            losses = [sess.run([step, spec.loss], {features: x, labels: y})[1] for x, y in zip(xs, ys)]
            return losses, sess.run({v.name: v for v in tg.global_variables()})


def assert_bitwise(cpu, strict):
    np.testing.assert_array_equal(cpu[0], strict[0])
    assert sorted(cpu[1]) == sorted(strict[1])
    for name in cpu[1]:
        assert cpu[1][name].tobytes() == strict[1][name].tobytes(), f"variable {name!r} differs"



@pytest.mark.parametrize("name", sorted(DATA))
def test_a_training_step_of_every_model_is_bitwise_the_cpu_step(name):
    assert sorted(DATA) == models.names(), "a new model needs an entry in DATA"
    strict = strict_device.use()
    cpu, device = train(name, "cpu", steps=1), train(name, strict, steps=1)
    if name != "cnn":
        assert_bitwise(cpu, device)
        return
    # the host convolves one-channel images from columns gathered tap by tap, in 1 MiB slices of the batch, and images
    # of more than 4 channels by row windows, a device by im2col: the same sums in another order (kernels/conv.py)
    np.testing.assert_allclose(cpu[0], device[0], rtol=1e-12)
    assert sorted(cpu[1]) == sorted(device[1])
    for name in cpu[1]:
        np.testing.assert_allclose(cpu[1][name], device[1][name], rtol=1e-12, atol=1e-15, err_msg=name)


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_a_few_mlp_steps_with_each_optimizer(optimizer):
    strict = strict_device.use()
    cpu = train("mlp", "cpu", optimizer, steps=3)
    assert_bitwise(cpu, train("mlp", strict, optimizer, steps=3))
    assert cpu[0][-1] != cpu[0][0]  # it trained: the comparison is not of untouched initial values


def test_distributed_optimizer_at_one_rank_on_the_standin_is_the_plain_step():
    strict = strict_device.use()
    plain = train("mlp", "cpu", steps=2)
    assert_bitwise(plain, train("mlp", strict, steps=2, distributed=True))
    assert_bitwise(plain, train("mlp", "cpu", steps=2, distributed=True))


def test_a_step_on_the_standin_copies_nothing_to_the_host_but_the_fetched_loss(monkeypatch):
    strict = strict_device.use()
    copies = []
    real_get = strict_device.StrictArray.get

    def counting_get(self):
        copies.append(self.shape)
        return real_get(self)
    monkeypatch.setattr(strict_device.StrictArray, "get", counting_get)
    task, shape, make_labels = DATA["mlp"]
    rng = np.random.default_rng(0)
    with tg.Graph().as_default():
        features, labels = tg.placeholder(tg.float64, [None, 6]), tg.placeholder(tg.int64, [None])
        spec = models.get("mlp")(features, labels, task, hidden=(5, 4))
        step = tg.train.AdamOptimizer(0.01).minimize(spec.loss, global_step=tg.train.get_or_create_global_step())
        with tg.Session(device=strict) as sess:
            sess.run(tg.global_variables_initializer())
            feed = {features: rng.standard_normal((8, 6)), labels: make_labels(rng, 8)}
            copies.clear()
            for _ in range(3):
                sess.run([step, spec.loss], feed)
            assert copies == [()] * 3  # the loss each step; no gradient, variable or slot came back
            sess.run(step, feed)
            assert copies == [()] * 3
