"""trainer.as_tensorflow: unmodified TF1 programs (tests/tf1_programs/unmodified/) run as real processes with
ringflow as tensorflow, alone and under mpiexec; the aliases, the errors for what ringflow lacks, and a real
TensorFlow left alone unless the wrapper is asked for."""
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.mpirun import ROOT, find_mpiexec, mpi_env
from tests.trainer.program.test_datasets import write_idx

UNMODIFIED = ROOT / "tests" / "tf1_programs" / "unmodified"
NOTICE = "ringflow: running this program with ringflow as tensorflow"
KERAS_NOTICE = "ringflow: running this program with ringflow's tf.keras as keras"
TIMEOUT = 120  # seconds; each program takes a few on a loaded 2-core machine


def _run(args, cwd, env=None, mpi_ranks=None, check=True):
    command = [sys.executable, *args]
    if mpi_ranks is not None:
        command = [find_mpiexec(), "-n", str(mpi_ranks), *command]
    done = subprocess.run(command, cwd=cwd, env=env or mpi_env(), capture_output=True, text=True, timeout=TIMEOUT)
    if check:
        assert done.returncode == 0, f"{command} exited with {done.returncode}:\n{done.stdout}\n{done.stderr[-4000:]}"
    return done


def _write_mnist(directory, seed=0):
    """MNIST-format IDX files: each class a fixed random image, each example it plus noise (separable)."""
    rng = np.random.default_rng(seed)
    prototypes = rng.uniform(0, 1, (10, 28, 28))
    for prefix, n in (("train", 1100), ("t10k", 300)):
        labels = rng.integers(0, 10, n).astype(np.uint8)
        images = (np.clip(prototypes[labels] + rng.normal(0, 0.35, (n, 28, 28)), 0, 1) * 255).astype(np.uint8)
        write_idx(directory / f"{prefix}-images-idx3-ubyte.gz", images, compress=True)
        write_idx(directory / f"{prefix}-labels-idx1-ubyte.gz", labels, compress=True)


def test_unmodified_program_with_contrib_rnn_input_data_and_timeline(tmp_path):
    _write_mnist(tmp_path)
    done = _run(["-m", "trainer.as_tensorflow", str(UNMODIFIED / "lstm_mnist_contrib.py"),
                 f"--data_dir={tmp_path}", "--timeline=trace.json"], cwd=tmp_path)
    out = done.stdout
    assert "rnn/basic_lstm_cell/kernel [60, 128], rnn/basic_lstm_cell/bias [128]" in out
    losses = [float(v) for v in re.findall(r"Minibatch Loss= ([\d.]+)", out)]
    assert len(losses) == 3 and losses[-1] < 0.3 * losses[0]
    assert float(re.search(r"Testing Accuracy: ([\d.]+)", out).group(1)) > 0.9
    assert done.stderr.count(NOTICE) == 1 and "installed TensorFlow" not in done.stderr
    events = json.loads((tmp_path / "trace.json").read_text())["traceEvents"]
    ops = [e for e in events if e["ph"] == "X"]
    # the LSTM runs as fused ops (TF1's BlockLSTM or one LSTMBlockCell per step), the softmax layer as a MatMul
    names = {e["name"] for e in ops}
    assert {"MatMul", "ApplyAdam"} <= names and names & {"BlockLSTM", "LSTMBlockCell"}, names
    assert any(e["args"]["name"].startswith("rnn/basic_lstm_cell/") for e in ops)
    assert any(e["name"] in ("BlockLSTM", "LSTMBlockCell") and "rnn/" in e["args"]["name"] for e in ops)
    assert [e["args"]["name"] for e in events if e["ph"] == "M"][:2] == [
        "Allocators", "/job:localhost/replica:0/task:0/device:CPU:0 Compute"]


@pytest.mark.skipif(find_mpiexec() is None, reason="no mpiexec")
def test_unmodified_horovod_program_under_mpiexec(tmp_path):
    done = _run(["-m", "trainer.as_tensorflow", str(UNMODIFIED / "horovod_regression.py")], cwd=tmp_path,
                mpi_ranks=2)
    lines = sorted(re.findall(r"rank (\d) of (\d): w ([\d.-]+) b ([\d.-]+) rank sum ([\d.]+)", done.stdout))
    assert [(r, s) for r, s, *_ in lines] == [("0", "2"), ("1", "2")]
    (w0, b0, sum0), (w1, b1, sum1) = [tuple(map(float, rest)) for _, _, *rest in lines]
    assert (w0, b0) == (w1, b1)  # the ranks stay in step: broadcast start, averaged gradients
    assert w0 == pytest.approx(3.0, abs=1e-3) and b0 == pytest.approx(1.0, abs=1e-3)
    assert sum0 == sum1 == 1.0  # 0 + 1
    assert done.stderr.count(NOTICE) == 1  # rank 0 only


ALIASES = """
import importlib, sys
import trainer, trainer.as_tensorflow as wrapper
assert not wrapper.is_installed()
wrapper.install()
import tensorflow as tf
import tensorflow.compat.v1 as v1
from tensorflow.contrib import rnn, layers
from tensorflow.contrib.tensorboard.plugins import projector
from tensorflow.python.client import timeline
from tensorflow.python.ops import resources
from tensorflow.keras.datasets import mnist
from tensorflow.examples.tutorials.mnist import input_data
import horovod.tensorflow as hvd
print(tf is trainer, v1 is trainer.compat.v1, rnn is trainer.contrib.rnn,
      hvd is importlib.import_module('trainer.horovod'), timeline.__name__, resources.__name__, mnist.__name__, input_data.__name__, projector.__name__, layers.__name__)
print(tf.__spec__.name, tf.contrib.rnn.LSTMCell is tf.nn.rnn_cell.LSTMCell)
for statement in ("import tensorflow.contrib.legacy_seq2seq", "from tensorflow.contrib import crf",
                  "import tensorflow.python.pywrap_tensorflow", "import horovod.torch",
                  "from tensorflow.keras import saving", "from tensorflow.keras.layers import TextVectorization"):
    try:
        exec(statement)
    except ImportError as e:
        print(type(e).__name__, e)
wrapper.uninstall()
print('tensorflow' in sys.modules, wrapper.is_installed())
"""


def test_aliases_and_what_ringflow_lacks(tmp_path):
    done = _run(["-c", ALIASES], cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert lines[0] == ("True True True True trainer.python.client.timeline trainer.python.ops.resources "
                        "trainer.keras.datasets.mnist trainer.examples.tutorials.mnist.input_data "
                        "trainer.contrib.tensorboard.plugins.projector trainer.contrib.layers")
    assert lines[1] == "trainer True"  # the aliased module keeps its own spec
    assert lines[2] == "ImportError tf.contrib.legacy_seq2seq is not available in ringflow (legacy seq2seq models)"
    assert lines[3].startswith("ImportError tf.contrib.crf is not available in ringflow")
    assert lines[4].startswith("ModuleNotFoundError No module named 'tensorflow.python.pywrap_tensorflow': ringflow")
    assert lines[5].startswith("ModuleNotFoundError")
    assert lines[6].startswith("ImportError tf.keras.saving is not available in ringflow (module "
                               "'trainer.keras' has no attribute 'saving'); tf.keras here is TF 1.15's but ")
    assert lines[7].startswith("ImportError tf.keras.layers.TextVectorization is not available in ringflow (module "
                               "'trainer.keras.layers' has no attribute 'TextVectorization'); tf.keras.layers has")
    assert lines[8] == "False False"
    assert done.stderr.count(NOTICE) == 1


def _fake_tensorflow(tmp_path):
    """A stand-in 'real' TensorFlow 9.9.0 on PYTHONPATH: a package and its distribution metadata."""
    site = tmp_path / "site"
    (site / "tensorflow").mkdir(parents=True)
    (site / "tensorflow" / "__init__.py").write_text("REAL = True\n")
    (site / "tensorflow-9.9.0.dist-info").mkdir()
    (site / "tensorflow-9.9.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: tensorflow\n"
                                                                   "Version: 9.9.0\n")
    return mpi_env(PYTHONPATH=f"{ROOT}:{site}")


def test_a_real_tensorflow_is_used_unless_the_wrapper_is_asked_for(tmp_path):
    env = _fake_tensorflow(tmp_path)
    plain = _run(["-c", "import trainer, trainer.as_tensorflow, tensorflow; print(tensorflow.REAL)"], cwd=tmp_path,
                 env=env)
    assert plain.stdout.strip() == "True" and NOTICE not in plain.stderr
    program = tmp_path / "prog.py"
    program.write_text("import sys\nimport tensorflow as tf\nprint(tf.__name__, hasattr(tf, 'REAL'), sys.argv[1:])\n")
    wrapped = _run(["-m", "trainer.as_tensorflow", str(program), "--flag", "x"], cwd=tmp_path, env=env)
    assert wrapped.stdout.strip() == "trainer False ['--flag', 'x']"
    assert f"{NOTICE} (the installed TensorFlow 9.9.0 is not used)" in wrapped.stderr
    late = _run(["-c", "import tensorflow, trainer.as_tensorflow as w\nw.install()"], cwd=tmp_path, env=env,
                check=False)
    assert late.returncode == 1 and "call install() before the program's first `import tensorflow`" in late.stderr


def test_wrapper_usage_errors(tmp_path):
    usage = _run(["-m", "trainer.as_tensorflow"], cwd=tmp_path, check=False)
    assert usage.returncode == 2 and "usage: python -m trainer.as_tensorflow PROGRAM.py" in usage.stderr
    missing = _run(["-m", "trainer.as_tensorflow", "nope.py"], cwd=tmp_path, check=False)
    assert missing.returncode == 2 and "can't open file" in missing.stderr and "nope.py" in missing.stderr
    failing = tmp_path / "fails.py"
    failing.write_text("import tensorflow as tf\nraise SystemExit(tf.__name__ == 'trainer' and 7)\n")
    assert _run(["-m", "trainer.as_tensorflow", str(failing)], cwd=tmp_path, check=False).returncode == 7
    module = tmp_path / "as_module.py"
    module.write_text("import sys, tensorflow\nprint(tensorflow.__name__, sys.argv[1:])\n")
    assert _run(["-m", "trainer.as_tensorflow", "-m", "as_module", "a"], cwd=tmp_path,
                env=mpi_env(PYTHONPATH=f"{ROOT}:{tmp_path}")).stdout.strip() == "trainer ['a']"


def test_importing_the_module_alone_changes_nothing():
    import trainer.as_tensorflow as wrapper
    assert not wrapper.is_installed() and "tensorflow" not in sys.modules
    assert wrapper.target_of("tensorflow.contrib.rnn") == "trainer.contrib.rnn"
    assert wrapper.target_of("horovod.tensorflow") == "trainer.horovod" and wrapper.target_of("numpy") is None
    assert Path(wrapper.__file__).parent.name == "as_tensorflow"


def _write_keras_mnist(home, seed=0, train=1024, test=256):
    """~/.keras/datasets/mnist.npz under `home`: each class a fixed random image, each example it plus noise."""
    rng = np.random.default_rng(seed)
    prototypes = rng.uniform(0, 1, (10, 28, 28))
    arrays = {}
    for split, n in (("train", train), ("test", test)):
        labels = rng.integers(0, 10, n).astype(np.uint8)
        images = np.clip(prototypes[labels] + rng.normal(0, 0.35, (n, 28, 28)), 0, 1)
        arrays[f"x_{split}"], arrays[f"y_{split}"] = (images * 255).astype(np.uint8), labels
    (home / ".keras" / "datasets").mkdir(parents=True)
    np.savez(home / ".keras" / "datasets" / "mnist.npz", **arrays)


@pytest.mark.parametrize("ranks", [None, 2])
def test_unmodified_keras_horovod_program(tmp_path, ranks):
    if ranks and find_mpiexec() is None:
        pytest.skip("no mpiexec found")
    _write_keras_mnist(tmp_path)
    done = _run(["-m", "trainer.as_tensorflow", "--keras", str(UNMODIFIED / "keras_horovod_mnist.py")],
                cwd=tmp_path, env=mpi_env(HOME=str(tmp_path)), mpi_ranks=ranks)
    assert float(re.search(r"Test accuracy: ([\d.]+)", done.stdout).group(1)) > 0.7  # chance: 0.1
    assert "ranks agree: True lr: " + ("1.0" if ranks is None else "2.0") in done.stdout
    assert done.stdout.count("Test loss") == 1  # rank 0 prints, as the program says
    assert "finished gradual learning rate warmup" in done.stdout
    assert sorted(p.name for p in tmp_path.glob("checkpoint-*.h5")) == \
        [f"checkpoint-{e}.h5" for e in range(1, (4 if ranks is None else 2) + 1)]
    assert done.stderr.count(KERAS_NOTICE) == 1


def test_keras_is_aliased_only_when_asked(tmp_path):
    site = tmp_path / "site"
    (site / "keras").mkdir(parents=True)
    (site / "keras" / "__init__.py").write_text("REAL = True\n")
    (site / "keras-2.2.4.dist-info").mkdir()
    (site / "keras-2.2.4.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: keras\nVersion: 2.2.4\n")
    program = tmp_path / "prog.py"
    program.write_text("import keras, horovod.keras as hvd\nprint(keras.__name__, hvd.__name__)\n")
    env = mpi_env(PYTHONPATH=f"{ROOT}:{site}")
    plain = _run(["-m", "trainer.as_tensorflow", str(program)], cwd=tmp_path, env=env)
    assert plain.stdout.split() == ["keras", "trainer.horovod.keras"] and KERAS_NOTICE not in plain.stderr
    for args, extra in ((["--keras"], {}), ([], {"RINGFLOW_KERAS": "1"})):
        asked = _run(["-m", "trainer.as_tensorflow", *args, str(program)], cwd=tmp_path,
                     env=mpi_env(PYTHONPATH=f"{ROOT}:{site}", **extra))
        assert asked.stdout.split() == ["trainer.keras", "trainer.horovod.keras"]
        assert f"{KERAS_NOTICE} (the installed Keras 2.2.4 is not used)" in asked.stderr
    missing = tmp_path / "missing.py"
    missing.write_text("from keras.layers import TextVectorization\n")
    failed = _run(["-m", "trainer.as_tensorflow", "--keras", str(missing)], cwd=tmp_path, check=False)
    assert failed.returncode == 1 and "not available in ringflow" in failed.stderr


PYTHON_KERAS = """
import trainer, trainer.as_tensorflow as wrapper
wrapper.install()
import tensorflow as tf
from tensorflow.python.keras import backend as K
from tensorflow.python.keras.layers import Dense
from horovod.tensorflow.util import _executing_eagerly, _has_eager, _cache
print(K is tf.keras.backend, Dense is tf.keras.layers.Dense, _executing_eagerly(), _has_eager)
calls = []
twice = _cache(lambda x: calls.append(x) or x * 2)
print(twice(3), twice(3), calls)
"""


def test_tensorflow_python_keras_is_tf_keras_and_horovods_util_answers_for_graph_mode(tmp_path):
    # Horovod's own TF1 test suites import both: `from tensorflow.python.keras import backend as K` and
    # horovod.tensorflow.util's eager probes, which must say "graph mode" (ringflow has no eager execution)
    done = _run(["-c", PYTHON_KERAS], cwd=tmp_path)
    assert done.stdout.splitlines() == ["True True False False", "6 6 [3]"], done.stderr


def test_a_program_importing_six_runs_as_under_tensorflow(tmp_path):
    """TensorFlow 1.x installs six and TF1-era programs (and the input_data.py copies they ship) import six.moves:
    ringflow installs it too, so such a program runs unchanged."""
    program = tmp_path / "six_program.py"
    program.write_text("from six.moves import xrange, urllib  # noqa: F401\n"
                       "import tensorflow as tf\n"
                       "total = tf.Variable(0.0)\n"
                       "add = tf.assign_add(total, 1.5)\n"
                       "with tf.Session() as sess:\n"
                       "    sess.run(tf.global_variables_initializer())\n"
                       "    for _ in xrange(4):\n"
                       "        sess.run(add)\n"
                       "    print('total', sess.run(total))\n")
    done = _run(["-m", "trainer.as_tensorflow", str(program)], cwd=tmp_path)
    assert "total 6.0" in done.stdout
