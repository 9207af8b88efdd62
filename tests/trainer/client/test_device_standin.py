"""Every op, a training step of every model and the distributed optimizer on the strict device stand-in.

The op test files (each op against its numpy/PyTorch/numerical oracle) run again with every Session on
the "strict" device; then a sweep over the op registry fails for any op type none of them ran there.
"""
import contextlib
import os

import numpy as np
import pytest

import trainer as tg
from tests.trainer import strict_device
from tests.trainer.conformance import families, xfails
from tests.trainer.conformance.test_tf_oracle import RECORDED, differences, replay
from trainer.client import session as session_module
from trainer.client.devices import default_device
from trainer.contrib.factorization.cluster_init import kmeans_plus_plus_initialization
from trainer.framework.registry import OPS

HERE = os.path.dirname(os.path.dirname(__file__))  # tests/trainer: OP_TEST_FILES are relative to it
# The op tests (each op against its oracle), by folder of tests/trainer/.
OP_TEST_FILES = ["ops/test_math_ops.py", "ops/test_nn_ops.py", "ops/test_array_ops.py", "ops/test_conv_ops.py",
                 "ops/test_tf1_ops.py", "ops/test_gradients.py", "ops/test_variables.py", "ops/test_control_flow.py",
                 "ops/test_logging_ops.py", "ops/test_check_ops.py", "ops/test_scan_ops.py", "ops/test_linalg_ops.py",
                 "ops/test_cholesky.py", "ops/test_diag_cross.py", "ops/test_io_ops.py", "ops/test_segment_ops.py",
                 "ops/test_batch_norm_ops.py", "ops/test_shuffle_ops.py", "ops/test_conv_transpose_ops.py",
                 "ops/test_scatter_ops.py", "ops/test_lrn.py", "ops/test_sampled_losses.py", "ops/test_sort_ops.py",
                 "ops/test_reverse_ops.py", "ops/test_matrix_ops.py", "ops/test_conv1d_ops.py",
                 "ops/test_activation_ops.py", "ops/test_nn_impl.py", "ops/test_sampling_ops.py",
                 "ops/test_tensor_args.py", "ops/test_tf1_core_names.py", "ops/test_conv3d_ops.py",
                 "ops/test_depthwise_conv_ops.py", "ops/test_sparse_ops.py", "ops/test_string_ops.py",
                 "ops/test_lookup_ops.py", "ops/test_set_ops.py", "ops/test_sparse_slice_ops.py"]
OP_TEST_FILES += ["train/test_optimizers.py", "train/test_tf1_optimizers.py", "train/test_learning_rate_decay.py",
                  "train/test_sparse_training_ops.py",
                  "train/test_moving_averages.py"]
OP_TEST_FILES += ["client/test_tf1_session.py"]
OP_TEST_FILES += ["horovod/test_horovod.py", "horovod/test_horovod_collectives.py"]
OP_TEST_FILES += ["test_metrics.py"]
OP_TEST_FILES += ["image/test_image.py"]
OP_TEST_FILES += ["rnn/test_rnn.py", "rnn/test_rnn_fused.py"]
OP_TEST_FILES += ["estimator/test_estimator_inputs.py"]
OP_TEST_FILES += ["ops/test_data_flow_ops.py", "ops/test_parsing_ops.py", "ops/test_file_ops.py",
                  "ops/test_image_decode_ops.py",
                  "train/test_queue_pipelines.py", "train/test_queue_idioms.py"]
OP_TEST_FILES += ["ops/test_encoding_ops.py", "summary/test_audio.py", "ops/test_mutable_lookup_ops.py"]
OP_TEST_FILES += ["data/test_tf_data.py", "data/test_tf_data_functions.py", "data/test_tf_data_iterators.py",
                  "data/test_tf_data_programs.py"]
OP_TEST_FILES += ["data/test_tf_data_experimental.py"]
OP_TEST_FILES += ["ops/test_stateless_random_ops.py", "ops/test_script_ops.py", "ops/test_bitcast_ops.py",
                  "ops/test_custom_gradient.py", "ops/test_tf1_top_level.py", "ops/test_fingerprint_ops.py",
                  "ops/test_audio_ops.py"]
OP_TEST_FILES += ["ops/test_quantize_ops.py", "ops/test_lu_ops.py", "ops/test_tridiagonal_ops.py",
                  "ops/test_matrix_function_ops.py", "ops/test_morphology_ops.py", "ops/test_incomplete_gamma_ops.py",
                  "image/test_resize.py", "ops/test_ctc_ops.py", "ops/test_unicode_ops.py"]
OP_TEST_FILES += ["feature_column/test_sparse_columns.py"]
OP_TEST_FILES += ["train/test_tf_loop_nodes.py", "train/test_loop_nodes.py", "ops/test_tensor_array_ops.py"]
# Built only by DistributedOptimizer on more than one rank: tests/mpi/test_device_distributed.py runs them on
# the stand-in (2 and 3 ranks), which a one-process sweep cannot.
MULTI_RANK_OPS = {"AllreduceGradients", "StartBucketAllreduce", "FinishBucketAllreduce"}
# Fed, never computed: their values enter a plan as feeds (a while body's loop variables are fed each pass, a
# tf.data function's arguments each element).
FED_TYPES = ("Const", "Placeholder", "PlaceholderWithDefault", "LoopVar", "DatasetFunctionArg")


@contextlib.contextmanager
def sessions_on(device, ran=None):
    """Every Session opened inside without device= runs on `device`; `ran` collects the op types its plans run."""
    def record(session, plan):
        if ran is not None:
            ran.update(op.type for op in plan.ops)
            ran.update(op.type for op in session.graph.get_operations() if op.type in FED_TYPES)

    session_module.PLAN_LISTENERS.append(record)
    try:
        with default_device(device):
            yield device
    finally:
        session_module.PLAN_LISTENERS.remove(record)


def strict_sessions(ran=None):
    """Every Session opened inside runs on the stand-in; `ran` collects the op types its plans execute."""
    return sessions_on(strict_device.use(), ran)


def test_standin_refuses_what_cupy_refuses():
    x = strict_device.to_device(np.arange(3.0))
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(x)
    with pytest.raises(TypeError, match="numpy array of shape \\(3,\\) met a StrictArray"):
        x + np.ones(3)
    with pytest.raises(TypeError, match="met a StrictArray"):
        np.concatenate([x, np.ones(3)])
    assert isinstance(x * np.float32(2) + 1, strict_device.StrictArray)  # scalars are fine, as in CuPy
    out = strict_device.xp.zeros(3)
    assert np.add(x, x, out=out) is out and strict_device.to_host(out).tolist() == [0.0, 2.0, 4.0]


def test_unknown_device_lists_the_registered_ones():
    with pytest.raises(ValueError, match=r"Unknown device 'tpu': use one of \[.*'cpu'.*'gpu'"):
        tg.Session(device="tpu")


def run_on(device, build, feeds=None):
    """Build a fresh graph with `build()` (returns fetches and a feed dict builder) and run it on `device`."""
    with tg.Graph().as_default():
        tg.set_random_seed(0)
        fetches, feed = build()
        with tg.Session(device=device) as sess:
            sess.run(tg.global_variables_initializer())
            return [sess.run(fetches, feed(v) if feed else None) for v in range(2)]


def same_on_both(build):
    """The stand-in's values equal the CPU's bitwise (serialized summaries byte for byte)."""
    cpu, strict = run_on("cpu", build), run_on(strict_device.use(), build)
    for a, b in zip(_flat(cpu), _flat(strict)):
        assert type(a) is type(b) or isinstance(a, np.generic) == isinstance(b, np.generic), (a, b)
        np.testing.assert_array_equal(a, b)


def _flat(value):
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _flat(v)]
    if isinstance(value, dict):
        return [leaf for k in sorted(value) for leaf in _flat(value[k])]
    return [value]


def summaries():
    x = tg.placeholder(tg.float64, [None, 3])
    image = tg.reshape(tg.cast(tg.abs(x) * 50, tg.uint8), [1, 2, 3, 1])
    merged = tg.summary.merge([tg.summary.scalar("loss", tg.reduce_mean(x)), tg.summary.histogram("x", x),
                               tg.summary.image("im", image), tg.summary.image("imf", tg.cast(image, tg.float32)),
                               tg.summary.tensor_summary("t", x)])
    return merged, lambda k: {x: np.array([[1.0, -2.0, 3.5], [0.25, k, -1.0]])}


def predicates_and_second_order_gradients():
    x = tg.placeholder(tg.float64, [2, 3])
    b = tg.Variable(np.array([0.5, -1.0, 2.0]))
    inf = tg.is_inf(x / tg.constant(np.array([0.0, 1.0, 2.0])))
    g_b, = tg.gradients(tg.reduce_sum(tg.square(x + b)), [b])  # SumToShape; its gradient is BroadcastLike
    gg, = tg.gradients(tg.reduce_sum(g_b * g_b), [x])
    bias_gg, = tg.gradients(tg.reduce_sum(tg.gradients(tg.reduce_sum(tg.nn.bias_add(x, b) ** 2), [b])[0]), [x])
    return [inf, g_b, gg, bias_gg], lambda k: {x: np.array([[1.0, -2.0, 3.0], [k, 0.5, -0.25]])}


def nonfinite_skip():
    """DistributedOptimizer's nonfinite='skip' at one rank: CheckGradientsFinite and ApplyIf."""
    x = tg.placeholder(tg.float64, [2])
    w = tg.Variable(np.array([1.0, -1.0]))
    loss = tg.reduce_sum(w * x)
    opt = tg.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.5), communicator=_one_rank(),
                                  nonfinite="skip")
    train = opt.minimize(loss)
    return [train, w.value() if hasattr(w, "value") else tg.identity(w)], \
        lambda k: {x: np.array([1.0, np.nan]) if k else np.array([2.0, 3.0])}


def _one_rank():
    import allreduce
    from mpi4py import MPI
    return allreduce.create_communicator("mpi", comm=MPI.COMM_SELF)


def range_meets_device_math():
    """tg.range's result must live on the device too (its kernel once made a host array there)."""
    n = tg.placeholder(tg.int32, [])
    x = tg.placeholder(tg.float64, [None])
    return [tg.cast(tg.range(n), tg.float64) * x, tg.range(1.0, 2.0, 0.25)], \
        lambda k: {n: 3 + k, x: np.arange(3 + k, dtype=np.float64)}


def kmeans_plus_plus_seeding():
    """KMeans' k-means++ op draws on the host and takes the rows on the device."""
    x = tg.placeholder(tg.float64, [None, 2])
    centers = kmeans_plus_plus_initialization(x, 3, seed=7, num_retries_per_sample=2)
    return centers, lambda k: {x: np.arange(24.0).reshape(12, 2) ** (1 + k)}


CASES = [summaries, predicates_and_second_order_gradients, nonfinite_skip, range_meets_device_math,
         kmeans_plus_plus_seeding]


@pytest.mark.parametrize("build", CASES, ids=lambda f: f.__name__)
def test_case_on_the_standin_equals_cpu(build):
    same_on_both(build)


def test_op_suite_on_the_standin_and_every_op_type_ran_there():
    ran = set()
    with strict_sessions(ran):
        code = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                            *[os.path.join(HERE, f) for f in OP_TEST_FILES]])
        for build in CASES:
            run_on(None, build)
        # the math family of the conformance table is its ops' test: replayed here, it must still agree with TF
        disagree = {name: differences(RECORDED["cases"][name], replay(case))
                    for name, case in families.families()["math"].cases().items() if not xfails.reason(name)}
    assert code == 0, "an op test failed on the strict device stand-in (see the output above)"
    assert {name: found for name, found in disagree.items() if found} == {}
    missing = sorted(t for t in set(OPS) - ran - MULTI_RANK_OPS if not _registered_by_a_test(t))
    assert not missing, f"op types no test ran on the strict device stand-in: {missing}; add a test to one of " \
                        f"{OP_TEST_FILES} or a case to CASES"


def _registered_by_a_test(op_type):
    d = OPS[op_type]
    return getattr(d.forward or d.kernel, "__module__", "").startswith("tests.")
