"""A training step reuses the memory the previous step freed: it does not page-fault its arrays back in."""
import subprocess
import sys
import textwrap

import pytest

from tests.mpirun import ROOT

STEPS = textwrap.dedent("""
    import resource
    import numpy as np
    import trainer as tg

    x = tg.placeholder(tg.float32, [64, 256])
    h = x
    for i in range(6):  # (64, 512) float32 activations: 128 KiB each, glibc's default mmap threshold
        h = tg.nn.tanh(tg.layers.dense(h, 512))
    train = tg.train.GradientDescentOptimizer(0.01).minimize(tg.reduce_sum(h * h))
    sess = tg.Session()
    sess.run(tg.global_variables_initializer())
    feed = {x: np.random.default_rng(0).random((64, 256), dtype=np.float32)}
    for _ in range(3):
        sess.run(train, feed)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(10):
        sess.run(train, feed)
    print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 10)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc thresholds")
def test_a_step_does_not_fault_its_memory_back_in():
    done = subprocess.run([sys.executable, "-c", STEPS], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    faults_per_step = float(done.stdout.split()[-1])
    assert faults_per_step < 50, faults_per_step  # 32 pages per 128 KiB array: hundreds without the thresholds
