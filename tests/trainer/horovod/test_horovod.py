"""trainer.horovod in one process (size 1): the basics, and every op as the identity its size-1 case is.

The multi-rank behaviour (averages, variable-length gathers, broadcasts, training equal to one process on the
global batch) is tested under mpiexec in tests/mpi/test_horovod.py.
"""
import importlib.util
import subprocess
import sys

import numpy as np
import pytest

import trainer as tg
import trainer.horovod as hvd
from tests.mpirun import ROOT
from trainer.train.session_run_hook import SessionRunHook


@pytest.fixture(autouse=True)
def initialized():
    tg.reset_default_graph()
    hvd.init()
    yield
    if not hvd.is_initialized():  # a test that shut Horovod down leaves it as it found it
        hvd.init()


def nccl_importable():
    if importlib.util.find_spec("cupy") is None:
        return False
    try:
        from cupy.cuda import nccl  # noqa: F401
    except Exception:
        return False
    return True


def run(fetches, feeds=None):
    with tg.Session() as sess:
        return sess.run(fetches, feeds)


def test_import_starts_no_mpi():
    code = ("import sys, trainer.horovod as hvd; assert 'mpi4py.MPI' not in sys.modules, 'MPI imported';"
            "assert not hvd.is_initialized()")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_calls_before_init_say_to_init():
    hvd.shutdown()
    assert not hvd.is_initialized()
    for query in (hvd.rank, hvd.size, hvd.local_rank, hvd.local_size, hvd.cross_rank, hvd.cross_size):
        with pytest.raises(ValueError, match=r"^Horovod has not been initialized; use hvd\.init\(\)\.$"):
            query()
    x = tg.constant([1.0, 2.0])
    with pytest.raises(ValueError, match="Horovod has not been initialized"):
        run(hvd.allreduce(x))  # ops can be built before init, not run


def test_one_process_layout():
    hvd.init()  # a second init is a no-op
    assert (hvd.rank(), hvd.size(), hvd.local_rank(), hvd.local_size(), hvd.cross_rank(), hvd.cross_size()) == \
        (0, 1, 0, 1, 0, 1)
    assert hvd.mpi_enabled() is True and hvd.mpi_built() is True
    assert hvd.gloo_enabled() is False and hvd.gloo_built() is False
    assert isinstance(hvd.mpi_threads_supported(), bool)
    assert hvd.nccl_built() is nccl_importable()
    assert run([hvd.size_op(), hvd.rank_op(), hvd.local_size_op(), hvd.local_rank_op()]) == [1, 0, 1, 0]


def test_init_takes_a_communicator_a_rank_list_or_the_environment(monkeypatch):
    import allreduce
    hvd.shutdown()
    hvd.init(allreduce.create_communicator("ring"))
    assert hvd.communicator().name == "ring"
    hvd.shutdown()
    hvd.init(comm=[0])
    assert (hvd.rank(), hvd.size()) == (0, 1)
    hvd.shutdown()
    monkeypatch.setenv("RINGFLOW_ALLREDUCE", "mpi")
    hvd.init()
    assert hvd.communicator().name == "mpi"
    hvd.shutdown()
    monkeypatch.setenv("RINGFLOW_ALLREDUCE", "carrier-pigeon")
    with pytest.raises(ValueError, match=r"RINGFLOW_ALLREDUCE='carrier-pigeon'.*'ring'.*'shm'"):
        hvd.init()
    with pytest.raises(ValueError, match=r"distinct ranks.*\[0, 0\]"):
        hvd.init(comm=[0, 0])


ARRAYS = [np.arange(12, dtype=np.float32).reshape(3, 4) / 7, np.arange(-3, 4, dtype=np.int64), np.zeros((0, 2))]


@pytest.mark.parametrize("value", ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
@pytest.mark.parametrize("op", [hvd.Average, hvd.Sum, hvd.Min, hvd.Max])
def test_allreduce_of_one_rank_is_the_identity(value, op):
    got = run(hvd.allreduce(tg.constant(value), op=op))
    assert got.dtype == value.dtype
    np.testing.assert_array_equal(got, value)


def test_allreduce_scales_and_takes_the_deprecated_average_flag():
    x = np.array([1.5, -2.0, 4.0])
    got = run(hvd.allreduce(tg.constant(x), op=hvd.Sum, prescale_factor=3.0, postscale_factor=0.5))
    np.testing.assert_array_equal(got, x * 1.5)
    with pytest.warns(DeprecationWarning, match="op=hvd.Average"):
        summed = hvd.allreduce(tg.constant(x), average=False)
    np.testing.assert_array_equal(run(summed), x)


def test_scale_factors_are_horovods_32_bit_attrs_applied_in_float64_and_truncated_for_integers():
    x = np.array([1.0, 3.0])
    f32 = float(np.float32(0.1))  # 0.100000001490116...: Horovod's op holds its factors as TF float attrs
    got = run(hvd.allreduce(tg.constant(x), op=hvd.Sum, prescale_factor=0.1))
    assert got.tolist() == (x * f32).tolist() != (x * 0.1).tolist()
    ints = run(hvd.allreduce(tg.constant(np.array([7, -7, 3], np.int32)), op=hvd.Sum, prescale_factor=0.5,
                             postscale_factor=3.0))
    assert ints.dtype == np.int32 and ints.tolist() == [9, -9, 3]  # (int)(7 * 0.5) = 3, then 3 * 3.0
    halves = run(hvd.allreduce(tg.constant(np.array([1.0, 3.0], np.float16)), op=hvd.Sum, prescale_factor=0.1))
    assert halves.tolist() == (np.array([1.0, 3.0], np.float32) * np.float32(0.1)).astype(np.float16).tolist()


def test_fp16_compression_rounds_on_the_wire_and_restores_the_dtype():
    x = np.float32(1 + 2.0 ** -12)  # not a float16: rounds to 1
    plain = hvd.allreduce(tg.constant(x))
    compressed = hvd.allreduce(tg.constant(x), compression=hvd.Compression.fp16)
    assert compressed.dtype == np.float32
    assert run(plain) == x and run(compressed) == np.float32(1.0)
    ints = hvd.allreduce(tg.constant(np.array([70000], np.int32)), compression=hvd.Compression.fp16)
    assert run(ints)[0] == 70000  # only floats are compressed


def test_allreduce_errors_name_the_culprit():
    x = tg.constant([1.0, 2.0], name="grads")
    with pytest.raises(NotImplementedError, match="hvd.Adasum"):
        hvd.allreduce(x, op=hvd.Adasum)
    with pytest.raises(ValueError, match="op=1 and average=True"):
        hvd.allreduce(x, op=hvd.Sum, average=True)
    with pytest.raises(ValueError, match="Unknown reduce op 'max'"):
        hvd.allreduce(x, op="max")
    with pytest.raises(TypeError, match="'flags:0' of dtype bool"):
        hvd.allreduce(tg.constant([True], name="flags"))
    with pytest.raises(TypeError, match="prescale_factor must be a Python number .* for 'counts:0'"):
        hvd.allreduce(tg.constant([1], name="counts"), prescale_factor=tg.constant(2.0))


@pytest.mark.parametrize("op, scale", [(hvd.Average, 1.0), (hvd.Sum, 3.0)])
def test_allreduce_gradient_is_the_allreduce_of_the_gradient(op, scale):
    x = tg.Variable(np.array([1.0, 2.0, 3.0]))
    c = np.array([0.5, -1.0, 2.0])
    loss = tg.reduce_sum(hvd.allreduce(x, op=op, postscale_factor=scale) * c)
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(tg.gradients(loss, [x])[0]), scale * c)
    with pytest.raises(NotImplementedError, match="only hvd.Average and hvd.Sum"):
        tg.gradients(tg.reduce_sum(hvd.allreduce(x, op=hvd.Max)), [x])


def test_allgather_and_broadcast_of_one_rank_and_their_gradients():
    x = tg.Variable(np.arange(6.0).reshape(3, 2))
    gathered, cast = hvd.allgather(x), hvd.broadcast(x, 0)
    assert tuple(gathered.shape) == (None, 2)
    c = np.arange(6.0).reshape(3, 2) + 1
    grads = tg.gradients(tg.reduce_sum(gathered * c) + tg.reduce_sum(cast * 2 * c), [x])
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        g, b, grad = sess.run([gathered, cast, grads[0]])
    np.testing.assert_array_equal(g, np.arange(6.0).reshape(3, 2))
    np.testing.assert_array_equal(b, g)
    np.testing.assert_array_equal(grad, 3 * c)


def test_allgather_and_broadcast_errors_name_the_culprit():
    with pytest.raises(ValueError, match="scalar 'lonely:0'"):
        hvd.allgather(tg.constant(1.0, name="lonely"))
    with pytest.raises(ValueError, match=r"root must be a rank in \[0, 1\), got 1 at rank 0"):
        run(hvd.broadcast(tg.constant([1.0]), 1))
    with pytest.raises(TypeError, match="root_rank must be an int, got '0'"):
        hvd.broadcast(tg.constant([1.0]), "0")


def build_training(distributed, **kwargs):
    tg.reset_default_graph()
    tg.set_random_seed(3)
    x = tg.constant(np.linspace(-1, 1, 20).reshape(10, 2))
    w = tg.get_variable("w", (2, 1), tg.float64, initializer=tg.glorot_uniform_initializer())
    unused = tg.Variable(np.ones(2), name="unused")
    loss = tg.reduce_mean(tg.square(tg.matmul(x, w) - 1.0))
    opt = tg.train.MomentumOptimizer(0.1, momentum=0.9)
    if distributed:
        opt = hvd.DistributedOptimizer(opt, **kwargs)
    pairs = opt.compute_gradients(loss, var_list=[w, unused])
    assert pairs[1][0] is None
    train = opt.apply_gradients(pairs, global_step=tg.train.get_or_create_global_step())
    return opt, train, w


@pytest.mark.parametrize("kwargs", [{}, {"compression": hvd.Compression.fp16}, {"gradient_predivide_factor": 4.0}])
def test_distributed_optimizer_of_one_rank_is_the_wrapped_optimizer(kwargs):
    values = []
    for distributed in (False, True):
        opt, train, w = build_training(distributed, **kwargs)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for _ in range(3):
                sess.run(train)
            values.append(sess.run(w))
    np.testing.assert_array_equal(values[1], values[0])
    assert isinstance(opt, tg.train.Optimizer)
    assert opt.get_slot_names() == ["momentum"] and opt.get_slot(w, "momentum") is not None


def test_distributed_optimizer_refuses_what_it_cannot_do():
    sgd = tg.train.GradientDescentOptimizer(0.1)
    with pytest.raises(ValueError, match="backward_passes_per_step must be an integer >= 1, got 0"):
        hvd.DistributedOptimizer(sgd, backward_passes_per_step=0)
    with pytest.raises(NotImplementedError, match="hvd.Adasum"):
        hvd.DistributedOptimizer(sgd, op=hvd.Adasum)
    with pytest.raises(ValueError, match="hvd.Average or hvd.Sum, got 4"):
        hvd.DistributedOptimizer(sgd, op=hvd.Max)
    with pytest.raises(ValueError, match="gradient_predivide_factor=2.0 needs op=hvd.Average"):
        hvd.DistributedOptimizer(sgd, op=hvd.Sum, gradient_predivide_factor=2.0)
    hvd.shutdown()
    with pytest.raises(ValueError, match="Horovod has not been initialized"):
        hvd.DistributedOptimizer(sgd)


def test_broadcast_global_variables_keeps_the_one_ranks_values():
    v = tg.Variable(np.array([1.0, 2.0]), name="v")
    step = tg.train.get_or_create_global_step()
    bcast = hvd.broadcast_global_variables(0)
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        sess.run([v.assign([5.0, 6.0]), step.assign(7)])
        sess.run(bcast)
        np.testing.assert_array_equal(sess.run(v), [5.0, 6.0])
        assert sess.run(step) == 7


def test_hook_builds_in_begin_and_broadcasts_after_the_session_exists():
    v = tg.Variable(np.array([3.0]), name="v")
    hook = hvd.BroadcastGlobalVariablesHook(0)
    assert isinstance(hook, SessionRunHook)
    hook.begin()
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        hook.after_create_session(sess, None)
        np.testing.assert_array_equal(sess.run(v), [3.0])


def test_hook_in_a_monitored_training_session():
    if not hasattr(tg.train, "MonitoredTrainingSession"):
        pytest.skip("tg.train.MonitoredTrainingSession does not exist yet")
    v = tg.Variable(np.array([3.0]), name="v")
    with tg.train.MonitoredTrainingSession(hooks=[hvd.BroadcastGlobalVariablesHook(0)]) as sess:
        np.testing.assert_array_equal(sess.run(v), [3.0])
