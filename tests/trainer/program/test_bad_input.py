"""Every bad input gets one clear line: datasets, flags, model hyper-parameters and environment variables.

CASES is the table of bad datasets (real files written to tmp_path), CONFIG_CASES the table of bad settings.
Each case asserts the exception type, that the message is one line, names the culprit and says what is wrong.
"""
import gzip
import os
import pickle
import struct
import time
import zipfile

import numpy as np
import pytest

import models
from trainer.program import config_checks
from trainer.program.datasets import specs as datasets
from trainer.program.config_checks import ConfigError
from trainer.platform.data_checks import DatasetError, DatasetNotFound

IDX_CODES = {np.dtype(np.uint8): 0x08, np.dtype(np.int32): 0x0C, np.dtype(np.float32): 0x0D}


def idx_bytes(array, dims=None):
    dims = array.shape if dims is None else dims
    header = bytes([0, 0, IDX_CODES[array.dtype], len(dims)]) + struct.pack(f">{len(dims)}I", *dims)
    return header + array.astype(array.dtype.newbyteorder(">")).tobytes()


def mnist_dir(tmp_path, images=None, labels=None, gz=False):
    """A directory of MNIST-like IDX files; images/labels are arrays or raw bytes (None: a valid default)."""
    images = np.zeros((5, 28, 28), np.uint8) if images is None else images
    labels = np.arange(5, dtype=np.uint8) if labels is None else labels
    for stem, content in (("train-images-idx3-ubyte", images), ("train-labels-idx1-ubyte", labels)):
        raw = content if isinstance(content, bytes) else idx_bytes(content)
        if gz:
            (tmp_path / (stem + ".gz")).write_bytes(gzip.compress(raw))
        else:
            (tmp_path / stem).write_bytes(raw)
    return f"mnist:{tmp_path}"


def edit_gz(tmp_path, edit):
    """Valid gzipped MNIST files, then `edit(bytes) -> bytes` applied to the gzipped images file."""
    spec = mnist_dir(tmp_path, gz=True)
    path = tmp_path / "train-images-idx3-ubyte.gz"
    path.write_bytes(edit(path.read_bytes()))
    return spec


def npz_file(tmp_path, **arrays):
    np.savez(tmp_path / "d.npz", **arrays)
    return f"npz:{tmp_path / 'd.npz'}"


def raw_file(tmp_path, content, name="d.npz"):
    (tmp_path / name).write_bytes(content)
    return f"npz:{tmp_path / name}"


def npz_truncated_member(tmp_path):
    """A zip whose x.npy header promises 1000 float64 values but holds 10."""
    header = np.lib.format.header_data_from_array_1_0(np.zeros(1000))
    with zipfile.ZipFile(tmp_path / "d.npz", "w") as z:
        with z.open("x.npy", "w") as f:
            np.lib.format.write_array_header_1_0(f, header)
            f.write(np.zeros(10).tobytes())
        with z.open("y.npy", "w") as f:
            np.save(f, np.zeros(1000))
    return f"npz:{tmp_path / 'd.npz'}"


def npz_flip(tmp_path, compressed):
    """A valid .npz with one byte in the middle of x's data flipped (its CRC or its deflate stream breaks)."""
    (np.savez_compressed if compressed else np.savez)(tmp_path / "d.npz", x=np.arange(4000.0), y=np.zeros(4000))
    data = bytearray((tmp_path / "d.npz").read_bytes())
    data[len(data) // 4] ^= 0xFF
    (tmp_path / "d.npz").write_bytes(bytes(data))
    return f"npz:{tmp_path / 'd.npz'}"


def unreadable(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads files whatever their permissions")
    spec = npz_file(tmp_path, x=np.zeros((2, 2)), y=np.zeros(2))
    os.chmod(tmp_path / "d.npz", 0)
    return spec


X4 = np.arange(8.0).reshape(4, 2)

# (case id, how to make the bad input from tmp_path -> spec, fragment the message must hold)
CASES = [
    ("unknown-spec", lambda t: "imagenet", "unknown dataset 'imagenet'"),
    ("argument-to-synthetic", lambda t: "synthetic-classes:5", "takes no argument"),
    ("npz-without-file", lambda t: "npz:", "needs a file"),
    ("mnist-without-dir", lambda t: "mnist:", "needs a directory"),
    ("npz-missing-file", lambda t: f"npz:{t / 'nope.npz'}", "does not exist"),
    ("npz-is-a-directory", lambda t: f"npz:{t}", "is a directory"),
    ("npz-permission-denied", unreadable, "permission denied"),
    ("npz-empty-file", lambda t: raw_file(t, b""), "is empty"),
    ("npy-given-as-npz", lambda t: (np.save(t / "d.npy", X4), f"npz:{t / 'd.npy'}")[1], ".npy array"),
    ("csv-given-as-npz", lambda t: raw_file(t, b"x,y\n1.0,2.0\n3.0,4.0\n", "d.csv"), "np.loadtxt"),
    ("pickle-given-as-npz", lambda t: raw_file(t, pickle.dumps({"x": [1]}), "d.pkl"), "never unpickles"),
    ("gzip-given-as-npz", lambda t: raw_file(t, gzip.compress(b"PK\x03\x04 some archive")), "gunzip it"),
    ("html-given-as-npz", lambda t: raw_file(t, b"<!DOCTYPE html><html>Not Found</html>"), "HTML"),
    ("npz-cut-in-half", lambda t: raw_file(t, (npz_file(t, x=X4, y=np.zeros(4)),
                                               (t / "d.npz").read_bytes())[1][:200]), "damaged"),
    ("npz-truncated-member", npz_truncated_member, "truncated"),
    ("npz-member-bad-crc", lambda t: npz_flip(t, compressed=False), "damaged"),
    ("npz-compressed-member-corrupt", lambda t: npz_flip(t, compressed=True), "damaged"),
    ("npz-missing-y", lambda t: npz_file(t, x=X4), "holds ['x']"),
    ("npz-other-names", lambda t: npz_file(t, features=X4, labels=np.zeros(4)), "holds ['features', 'labels']"),
    ("npz-object-labels", lambda t: npz_file(t, x=X4, y=np.array([{}, 1, "a", None], dtype=object)),
     "Python objects"),
    ("npz-string-labels", lambda t: npz_file(t, x=X4, y=np.array(["cat", "dog", "cat", "eel"])), "strings"),
    ("npz-string-features", lambda t: npz_file(t, x=np.array([["1", "2"]] * 4), y=np.zeros(4)), "'x' holds strings"),
    ("npz-complex-features", lambda t: npz_file(t, x=X4 + 1j, y=np.zeros(4)), "not real numbers"),
    ("npz-date-labels", lambda t: npz_file(t, x=X4, y=np.array(["2020-01-01"] * 4, "datetime64[D]")),
     "not real numbers"),
    ("npz-scalar-features", lambda t: npz_file(t, x=np.float64(3.0), y=np.zeros(4)), "x is a single value"),
    ("npz-scalar-labels", lambda t: npz_file(t, x=X4, y=np.int64(1)), "y is a single value"),
    ("npz-labels-of-rank-3", lambda t: npz_file(t, x=X4, y=np.zeros((4, 2, 2))), "(4, 2, 2)"),
    ("npz-length-mismatch", lambda t: npz_file(t, x=X4, y=np.zeros(3)), "x has 4 samples but y has 3"),
    ("npz-no-samples", lambda t: npz_file(t, x=np.zeros((0, 2)), y=np.zeros(0)), "no samples"),
    ("npz-no-features", lambda t: npz_file(t, x=np.zeros((4, 0)), y=np.zeros(4)), "no features"),
    ("npz-negative-label", lambda t: npz_file(t, x=X4, y=np.array([0, 1, -1, 2])), "-1 at index 2"),
    ("npz-label-1e8", lambda t: npz_file(t, x=X4, y=np.array([0, 1, 10**8, 2])), "100000001 classes"),
    ("npz-uint64-label-beyond-int64", lambda t: npz_file(t, x=X4, y=np.array([0, 1, 2**64 - 1, 2], np.uint64)),
     "18446744073709551616 classes"),
    ("npz-multilabel-not-0-1", lambda t: npz_file(t, x=X4, y=np.array([[0, 1], [1, 2], [0, 0], [1, 1]])),
     "holds 2 at index (1, 1)"),
    ("npz-multi-output-regression", lambda t: npz_file(t, x=X4, y=np.linspace(0, 2, 12).reshape(4, 3)),
     "multi-output regression is not supported; train one target per run (y[:, j]"),
    ("npz-targets-as-a-column", lambda t: npz_file(t, x=X4, y=np.array([[0.5], [1.5], [2.0], [3.0]])), "y.ravel()"),
    ("npz-no-label-columns", lambda t: npz_file(t, x=X4, y=np.zeros((4, 0))), "no labels per sample"),
    ("npz-nan-feature", lambda t: npz_file(t, x=np.where(X4 == 3, np.nan, X4), y=np.zeros(4)),
     "x holds nan at index (1, 1)"),
    ("npz-inf-target", lambda t: npz_file(t, x=X4, y=np.array([0.0, np.inf, 1.0, 2.0])), "y holds inf at index 1"),
    ("mnist-missing-dir", lambda t: f"mnist:{t / 'nope'}", "does not exist"),
    ("mnist-dir-is-a-file", lambda t: raw_file(t, b"x", "f").replace("npz:", "mnist:"), "is a file"),
    ("mnist-missing-labels", lambda t: (mnist_dir(t), os.remove(t / "train-labels-idx1-ubyte"))[0],
     "train-labels-idx1-ubyte"),
    ("mnist-empty-file", lambda t: mnist_dir(t, images=b""), "is empty"),
    ("mnist-wrong-magic", lambda t: mnist_dir(t, images=b"\x08\x03\x00\x00" + bytes(100)), "not an IDX file"),
    ("mnist-html-page", lambda t: mnist_dir(t, images=b"<html><body>rate limited</body></html>"), "HTML"),
    ("mnist-truncated-header", lambda t: mnist_dir(t, images=b"\0\0\x08\x03\0\0\0\x05"), "inside its header"),
    ("mnist-truncated-data", lambda t: mnist_dir(t, images=idx_bytes(np.zeros((5, 28, 28), np.uint8))[:-5]),
     "holds only 3915 bytes"),
    ("mnist-header-says-more", lambda t: mnist_dir(t, images=idx_bytes(np.zeros((5, 28, 28), np.uint8),
                                                                       (6, 28, 28))), "truncated"),
    ("mnist-trailing-data", lambda t: mnist_dir(t, images=idx_bytes(np.zeros((5, 28, 28), np.uint8)) + b"junk"),
     "more data than"),
    ("mnist-gz-truncated", lambda t: edit_gz(t, lambda b: b[:len(b) // 2]), "truncated"),
    ("mnist-gz-bad-crc", lambda t: edit_gz(t, lambda b: b[:-8] + bytes([b[-8] ^ 0xFF]) + b[-7:]), "damaged"),
    ("mnist-gz-corrupt-deflate", lambda t: edit_gz(t, lambda b: b[:12] + b"\xff" * 8 + b[20:]), "damaged"),
    ("mnist-gz-header-claims-terabytes", lambda t: mnist_dir(t, images=idx_bytes(np.zeros(1, np.uint8),
                                                                                 (2**31, 28, 28)), gz=True),
     "more than this machine's"),
    ("mnist-files-swapped", lambda t: mnist_dir(t, images=np.arange(5, dtype=np.uint8),
                                                labels=np.zeros((5, 28, 28), np.uint8)), "swapped"),
    ("mnist-count-mismatch", lambda t: mnist_dir(t, labels=np.arange(3, dtype=np.uint8)),
     "5 images but 3 labels"),
    ("mnist-float-labels", lambda t: mnist_dir(t, labels=np.arange(5, dtype=np.float32)), "integer ids"),
    ("mnist-negative-label", lambda t: mnist_dir(t, labels=np.array([0, 1, 2, -4, 3], np.int32)), "-4 at index 3"),
    ("mnist-label-1e8", lambda t: mnist_dir(t, labels=np.array([0, 1, 10**8, 3, 4], np.int32)),
     "784 features x 100000001 classes"),
    ("mnist-nan-pixel", lambda t: mnist_dir(t, images=np.full((5, 28, 28), np.nan, np.float32)), "nan at index"),
]


@pytest.mark.parametrize("make,fragment", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_dataset_is_one_clear_line(tmp_path, make, fragment):
    spec = make(tmp_path)
    start = time.perf_counter()
    with pytest.raises(DatasetError) as err:
        datasets.load(spec)
    message = str(err.value)
    assert time.perf_counter() - start < 1.0  # refused by arithmetic, nothing absurd allocated
    assert fragment in message, message
    assert spec.partition(":")[2] in message or spec in message  # names the culprit
    assert "\n" not in message and isinstance(err.value, ValueError)


def test_the_table_goes_beyond_thirty_cases():
    assert len(CASES) >= 30 and len({c[0] for c in CASES}) == len(CASES)


def test_missing_files_are_also_file_not_found(tmp_path):
    for spec in (f"npz:{tmp_path / 'nope.npz'}", f"mnist:{tmp_path / 'nope'}"):
        with pytest.raises(DatasetNotFound) as err:
            datasets.load(spec)
        assert isinstance(err.value, FileNotFoundError) and isinstance(err.value, ValueError)


def test_label_bound_message_has_the_arithmetic(tmp_path):
    with pytest.raises(DatasetError) as err:
        datasets.load(npz_file(tmp_path, x=X4[:2], y=np.array([0, 10**8])))
    weights = 2 * (10**8 + 1)
    assert f"= {weights} weights" in str(err.value) and "762.9 MiB" in str(err.value)  # 4 B each


@pytest.mark.parametrize("y,task,outputs", [
    (np.array([True, False, True, True]), "classes", 2),
    (np.array([0, 1, 5, 2], np.uint8), "classes", 6),
    (np.array([[True, False]] * 4), "multilabel", 2),
])
def test_good_labels_still_load(tmp_path, y, task, outputs):
    d = datasets.load(npz_file(tmp_path, x=X4, y=y))
    assert (d.task, d.num_outputs) == (task, outputs)


def test_nonfinite_values_load_when_asked(tmp_path):
    x = np.where(X4 == 3, np.nan, X4)
    d = datasets.load(npz_file(tmp_path, x=x, y=np.array([0.0, np.inf, 1.0, 2.0])), allow_nonfinite=True)
    np.testing.assert_array_equal(d.x, x)
    assert d.y[1] == np.inf and d.task == "regression"


def test_values_beyond_float32_are_refused_before_the_cast(tmp_path):
    d = datasets.load(npz_file(tmp_path, x=np.array([[1.0], [1e300], [2.0], [3.0]]), y=np.zeros(4)))
    datasets.check_fits(d, "float64")
    with pytest.raises(DatasetError, match=r"x holds 1e\+300 at index \(1, 0\), beyond float32's range.*float64"):
        datasets.check_fits(d, "float32")


def test_valid_gzip_is_read_to_its_crc(tmp_path):
    d = datasets.load(mnist_dir(tmp_path, gz=True))
    assert d.x.shape == (5, 28, 28) and list(d.y) == [0, 1, 2, 3, 4]


def test_permission_errors_are_translated(tmp_path, monkeypatch):
    """Root reads any file, so the OS's PermissionError is injected here to check the translation."""
    from trainer.platform import data_files as dataset_files
    with pytest.raises(DatasetError, match="permission denied reading 'f.npz'.*chmod"):
        with dataset_files.reading("dataset 'npz:f.npz'", "f.npz"):
            raise PermissionError(13, "Permission denied")


# (case id, the check to run, fragment the message must hold); the culprit (flag or variable) is the fragment's
# first word and must open the message.
CONFIG_CASES = [
    ("lr-nan", lambda: config_checks.positive_number("--lr", "nan"), "--lr 'nan'"),
    ("lr-inf", lambda: config_checks.positive_number("--lr", float("inf")), "--lr inf"),
    ("lr-negative", lambda: config_checks.positive_number("--lr", -0.1), "--lr -0.1"),
    ("lr-zero", lambda: config_checks.positive_number("--lr", "0"), "--lr '0'"),
    ("lr-word", lambda: config_checks.positive_number("--lr", "fast"), "--lr 'fast'"),
    ("epochs-inf", lambda: config_checks.positive_number("--epochs", "inf"), "--epochs 'inf'"),
    ("epochs-beyond-int64-steps", lambda: config_checks.steps_for_epochs(1e300, 100, 32), "--epochs 1e+300"),
    ("batch-fraction", lambda: config_checks.positive_int("--batch-size", "2.5"), "--batch-size '2.5'"),
    ("batch-zero", lambda: config_checks.positive_int("--batch-size", 0), "--batch-size 0"),
    ("batch-bool", lambda: config_checks.positive_int("--batch-size", True), "--batch-size True"),
    ("batch-below-ranks", lambda: config_checks.check_batch_size(3, 100, ranks=4), "--batch-size 3"),
    ("batch-above-dataset", lambda: config_checks.check_batch_size(1000, 100, dataset="'synthetic-linear'"),
     "--batch-size 1000"),
    ("batch-1e11-memory", lambda: config_checks.check_memory(config_checks.positive_int("--batch-size", "1e11"),
                                                             (20,), 4, (512, 512)), "--batch-size 100000000000"),
    ("hidden-1e9-memory", lambda: config_checks.check_memory(32, (784,), 10, (10**9,)), "--batch-size 32 --hidden"),
    ("steps-negative", lambda: config_checks.non_negative_int("--steps", -1), "--steps -1"),
    ("seed-beyond-int64", lambda: config_checks.non_negative_int("--seed", 2**64), "--seed 18446744073709551616"),
    ("hidden-for-linear", lambda: config_checks.check_hparams("linear", hidden=(8,)), "model 'linear'"),
    ("hidden-for-cnn", lambda: config_checks.check_hparams("cnn", hidden=(8,)), "model 'cnn'"),
    ("hidden-zero-width", lambda: config_checks.check_hparams("mlp", hidden=(8, 0)), "model 'mlp'"),
    ("hidden-fraction", lambda: config_checks.check_hparams("multilabel", hidden=(2.5,)), "model 'multilabel'"),
    ("unknown-model", lambda: config_checks.check_hparams("resnet", hidden=(8,)), "unknown model 'resnet'"),
]


@pytest.mark.parametrize("check,fragment", [c[1:] for c in CONFIG_CASES], ids=[c[0] for c in CONFIG_CASES])
def test_bad_setting_is_one_clear_line(check, fragment):
    with pytest.raises(ValueError) as err:
        check()
    message = str(err.value)
    assert message.startswith(fragment) and "\n" not in message, message
    assert isinstance(err.value, ConfigError)


def test_hidden_for_a_model_without_hidden_layers_says_who_takes_it():
    with pytest.raises(ConfigError) as err:
        config_checks.check_hparams("logistic", hidden=(8,))
    assert "takes no hyper-parameters" in str(err.value) and "mlp, multilabel" in str(err.value)


def test_good_settings_pass_and_are_normalized():
    assert config_checks.positive_int("--batch-size", "1e3") == 1000
    assert config_checks.positive_number("--lr", "0.5") == 0.5
    assert config_checks.check_hparams("mlp", hidden=[np.int64(4), 3]) == {"hidden": (4, 3)}
    assert config_checks.check_hparams("linear", hidden=None) == {}
    assert config_checks.check_hparams("multilabel", hidden="64, 32") == {"hidden": (64, 32)}
    assert config_checks.steps_for_epochs(2, 100, 32) == 7


def test_memory_estimate_is_the_arithmetic_it_prints():
    # 2 copies x 4 B x (16 samples x (3 + 5 + 2) units + (3+1)*5 + (5+1)*2 parameters)
    assert config_checks.step_bytes(32, (3,), 2, (5,), "float32", ranks=2)[0] == 2 * 4 * (16 * 10 + 32)
    assert config_checks.check_memory(32, (784,), 10, (512, 512)) < 2**30
    with pytest.raises(ConfigError, match="more than the 1.0 KiB"):
        config_checks.check_memory(32, (3,), 2, (5,), limit=1024)


def test_models_declare_the_hyper_parameters_their_builders_take():
    import inspect
    for name in models.names():
        keywords = [p for p in inspect.signature(models.get(name)).parameters][3:]
        assert tuple(k for k in keywords if k != "seed") == models.hparams(name), name


# (variable, value, fragment) for allreduce.env.env_number and config_checks.check_environment
ENV_CASES = [
    ("RINGFLOW_TIMEOUT", "0", "RINGFLOW_TIMEOUT='0': must be a number of seconds > 0"),
    ("RINGFLOW_TIMEOUT", "-5", "RINGFLOW_TIMEOUT='-5'"),
    ("RINGFLOW_TIMEOUT", "soon", "RINGFLOW_TIMEOUT='soon'"),
    ("RINGFLOW_TIMEOUT", "inf", "RINGFLOW_TIMEOUT='inf'"),
    ("RINGFLOW_TIMEOUT", "nan", "RINGFLOW_TIMEOUT='nan'"),
    ("RINGFLOW_ALLREDUCE", "carrier-pigeon", "RINGFLOW_ALLREDUCE='carrier-pigeon'"),
]


@pytest.mark.parametrize("name,value,fragment", ENV_CASES)
def test_bad_environment_variable_is_named(monkeypatch, name, value, fragment):
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as err:
        config_checks.check_environment()
    assert str(err.value).startswith(fragment), str(err.value)


def test_env_number(monkeypatch):
    from allreduce.env import env_number
    monkeypatch.delenv("RINGFLOW_X", raising=False)
    assert env_number("RINGFLOW_X", 7, int, minimum=1) == 7
    monkeypatch.setenv("RINGFLOW_X", " ")
    assert env_number("RINGFLOW_X", 7, int, minimum=1) == 7  # set but empty: the default
    monkeypatch.setenv("RINGFLOW_X", "16e6")
    assert env_number("RINGFLOW_X", 7, int, minimum=1) == 16_000_000
    monkeypatch.setenv("RINGFLOW_X", "12.5")
    assert env_number("RINGFLOW_X", 1.0, float, minimum=0, strict=True) == 12.5
    for bad in ("4M", "2.5", "0"):
        monkeypatch.setenv("RINGFLOW_X", bad)
        with pytest.raises(ValueError, match=f"^RINGFLOW_X='{bad}': must be a whole number of bytes >= 1"):
            env_number("RINGFLOW_X", 4096, int, minimum=1, unit="bytes")


def test_checks_plug_into_argparse(capsys):
    import argparse
    parser = argparse.ArgumentParser(prog="ringflow")
    parser.add_argument("--epochs", type=config_checks.argument_type(config_checks.positive_number, "--epochs"))
    assert parser.parse_args(["--epochs", "2.5"]).epochs == 2.5
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args(["--epochs", "inf"])
    assert exit_.value.code == 2 and "--epochs 'inf': must be a finite number > 0" in capsys.readouterr().err
