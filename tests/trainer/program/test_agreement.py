"""trainer/program/agreement.py, dir_lock.py, output_paths.py and data.fingerprint, in one process (the real
jobs are in tests/test_cli_faults.py)."""
import os

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
from trainer import data
from trainer.program.config_checks import ConfigError
from trainer.program import DirectoryLock, JobError, agree, check_outputs
from trainer.program.agreement import compare, error_lines
from trainer.program.loop import Config


def test_one_rank_agrees_with_itself_and_its_error_is_printed_once():
    solo = allreduce.create_communicator("mpi", comm=MPI.COMM_SELF)
    agree(solo, None, {"--steps": 3})
    with pytest.raises(JobError) as info:
        agree(solo, ValueError("--lr 'x': bad"), None)
    assert info.value.lines == ["error: --lr 'x': bad"] and info.value.code == 1
    with pytest.raises(JobError) as info:
        agree(solo, MemoryError("no room"))
    assert info.value.lines == ["error: MemoryError: no room"]


def test_errors_are_grouped_by_rank_and_identical_ones_told_once():
    assert error_lines(["bad", "bad", "bad"]) == ["error: bad"]
    assert error_lines([None, "bad", None, "bad"]) == ["error on ranks 1, 3: bad"]
    assert error_lines(["a", "b"]) == ["error on rank 0: a", "error on rank 1: b"]


def test_the_first_fact_in_dispute_names_the_values_and_ranks():
    facts = [{"--steps": 10, "--lr": 0.1}, {"--steps": 11, "--lr": 0.2}, {"--steps": 10, "--lr": 0.1}]
    assert compare(facts).startswith("error: the ranks disagree on --steps: 10 on ranks 0, 2, 11 on rank 1;")
    assert compare([{"--hidden": [16]}, {"--hidden": [16]}]) is None


def test_the_fingerprint_sees_one_changed_sampled_row_and_any_change_of_shape():
    x, y = np.arange(300.0).reshape(100, 3), np.arange(100)
    base = data.fingerprint((x, y))
    assert data.fingerprint((x.copy(), y.copy())) == base
    changed = x.copy()
    changed[99, 2] += 1  # the last row is always sampled
    assert data.fingerprint((changed, y)) != base
    assert data.fingerprint((x[:99], y[:99])) != base and data.fingerprint((x.astype(np.float32), y)) != base


def test_a_directory_lock_excludes_a_second_holder_until_released(tmp_path):
    first = DirectoryLock(str(tmp_path))
    assert first.acquire() is None
    with pytest.raises(ConfigError, match=rf"is in use by another job \(pid {os.getpid()} on host "):
        DirectoryLock(str(tmp_path)).acquire()
    first.release()
    assert os.listdir(tmp_path) == []
    with DirectoryLock(str(tmp_path)):
        pass


def test_check_outputs_creates_directories_and_names_the_flag(tmp_path):
    config = Config(model="mlp", dataset="x", checkpoint_dir=str(tmp_path / "a" / "b"),
                    save_final=str(tmp_path / "c" / "w.npz"))
    assert check_outputs(config) == []
    assert (tmp_path / "a" / "b").is_dir() and (tmp_path / "c").is_dir() and not (tmp_path / "c" / "w.npz").exists()
    (tmp_path / "f").write_text("")
    with pytest.raises(ConfigError, match=r"^--logdir '.*/f' is a file, not a directory; give"):
        check_outputs(Config(model="mlp", dataset="x", logdir=str(tmp_path / "f")))
    with pytest.raises(ConfigError, match=r"^--timeline '.*/f/t.json': its directory '.*/f' is a file, not a"):
        check_outputs(Config(model="mlp", dataset="x", timeline=str(tmp_path / "f" / "t.json")))
