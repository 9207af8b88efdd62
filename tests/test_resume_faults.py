"""Nothing a user saved is lost: `ringflow train` with a lost or damaged `checkpoint` state file resumes from the
newest intact model.ckpt-N (never from step 0 over them), a checkpoint without its data position is refused
naming the file and the key, a full disk names the flag, file, step and the checkpoint kept, and checkpoints
also come every --checkpoint-every-secs (600 by default), all ranks saving after the same step."""
import errno
import json
import os
import re
import shutil

import pytest

from trainer.program import cli
from trainer.framework import tensor_bundle
from trainer.train import checkpoint

from .test_cli_faults import SMALL, assert_same, mpiexec, ringflow


def contents(directory):
    return {name: (directory / name).read_bytes() for name in sorted(os.listdir(directory))}


def tf_files(*steps):
    """The files of TF's checkpoints model.ckpt-<step> (the graph in .meta, as TF's Saver writes it), sorted."""
    return sorted(f"model.ckpt-{step}{ext}" for step in steps for ext in (".index", ".data-00000-of-00001", ".meta"))


@pytest.fixture(scope="module")
def six_steps(tmp_path_factory):
    """A checkpoint directory after 6 steps (model.ckpt-2/4/6) and the weights of an uninterrupted 9-step run."""
    root = tmp_path_factory.mktemp("six")
    first = ringflow(*SMALL, "--steps", 6, "--checkpoint-every-steps", 2, "--checkpoint-dir", root / "ckpt")
    assert first.returncode == 0, first.stderr
    assert f"ringflow: checkpoints to '{root / 'ckpt'}' every 600 s (the next at about " in first.stdout  # default
    assert "every 2 steps and at the end" in first.stdout
    whole = ringflow(*SMALL, "--steps", 9, "--no-progress", "--save-final", root / "whole.npz")
    assert whole.returncode == 0, whole.stderr
    return root


@pytest.mark.parametrize("damage,why", [
    (lambda state: state.write_text("garbage\n"), "is unreadable ("),
    (lambda state: state.unlink(), "is missing"),
])
def test_a_lost_state_file_resumes_from_the_newest_intact_checkpoint_file(tmp_path, six_steps, damage, why):
    ckpt = tmp_path / "ckpt"
    shutil.copytree(six_steps / "ckpt", ckpt)
    (ckpt / "model.ckpt-7.npz").write_bytes(b"PK half a file")  # a newer one, damaged: passed over
    damage(ckpt / "checkpoint")
    before = contents(ckpt)
    resumed = ringflow(*SMALL, "--steps", 9, "--no-progress", "--checkpoint-every-steps", 2, "--checkpoint-dir", ckpt,
                       "--keep-checkpoints", 10, "--save-final", tmp_path / "resumed.npz", "--metrics-json",
                       tmp_path / "m.json")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr.startswith(f"ringflow: the `checkpoint` state file of --checkpoint-dir '{ckpt}' {why}"), \
        resumed.stderr
    assert (f": resuming from the newest intact checkpoint file, '{ckpt / 'model.ckpt-6'}' (skipped: model.ckpt-7.npz: "
            "BadZipFile") in resumed.stderr
    assert resumed.stderr.count("\n") == 1 and "Warning" not in resumed.stderr, resumed.stderr  # one line
    assert json.loads((tmp_path / "m.json").read_text())["resumed_from_step"] == 6
    after = contents(ckpt)
    intact = tf_files(2, 4, 6)
    assert {name: after[name] for name in intact} == {name: before[name] for name in intact}
    assert set(tf_files(8, 9)) <= set(after)
    assert_same(six_steps / "whole.npz", tmp_path / "resumed.npz")


def test_a_checkpoint_without_its_data_position_is_refused_naming_the_file_and_key(tmp_path):
    ckpt = tmp_path / "ckpt"
    assert ringflow(*SMALL, "--steps", 4, "--no-progress", "--checkpoint-every-steps", 2,
                    "--checkpoint-dir", ckpt).returncode == 0
    path = ckpt / "model.ckpt-4.index"
    arrays, record = checkpoint.read(str(path))
    del record["meta"]["data"]
    checkpoint.write(str(ckpt / "model.ckpt-4"), arrays, record)
    out = ringflow(*SMALL, "--steps", 6, "--no-progress", "--checkpoint-dir", ckpt)
    assert out.returncode == 1 and out.stderr.strip() == (
        f"ringflow: error: checkpoint '{path}': its record has no 'data' key (the data position; it has "
        "['dataset', 'model', 'optimizer', 'random']): it is damaged or was not written by `ringflow train`; move "
        f"it out of --checkpoint-dir '{ckpt}' to resume from an older one, or use another --checkpoint-dir")
    os.rename(path, tmp_path / "model.ckpt-4.index")  # as told: the previous checkpoint is taken
    out = ringflow(*SMALL, "--steps", 6, "--no-progress", "--checkpoint-dir", ckpt, "--metrics-json",
                   tmp_path / "m.json")
    assert out.returncode == 0 and f"skipping checkpoint '{ckpt / 'model.ckpt-4'}'" in out.stderr, out.stderr
    assert json.loads((tmp_path / "m.json").read_text())["resumed_from_step"] == 2


class FullDisk:
    """checkpoint files on a file system that fills up after `room` files: the next write raises ENOSPC, as
    write(2) does (no file name), and the writer's temporary file is left for atomic_write to remove."""

    def __init__(self, real, room):
        self.real, self.room = real, room

    def __call__(self, path, mode="w", encoding=None):
        self.room -= 1
        if self.room >= 0:
            return self.real(path, mode, encoding)
        return self._full(path, mode, encoding)

    def _full(self, path, mode, encoding):
        real = self.real

        class Full:
            def __enter__(self):
                self.context = real(path, mode, encoding)
                self.file = self.context.__enter__()
                self.file.write(b"PK\x03\x04 the first bytes fit")
                return self

            def write(self, data):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

            def __getattr__(self, name):
                return getattr(self.file, name)

            def __exit__(self, *exc):
                return self.context.__exit__(*exc)
        return Full()


def test_a_full_disk_names_the_flag_the_file_the_step_and_the_checkpoint_kept(tmp_path, monkeypatch, capsys):
    ckpt = tmp_path / "ckpt"
    # room for step 2's data file and index; step 4's data file fills the disk
    monkeypatch.setattr(tensor_bundle, "atomic_write", FullDisk(tensor_bundle.atomic_write, room=2))
    with pytest.raises(SystemExit) as exit_code:
        cli.main(["train", *SMALL, "--steps", "6", "--no-progress", "--checkpoint-every-steps", "2",
                  "--checkpoint-dir", str(ckpt)])
    assert exit_code.value.code == 1
    err = capsys.readouterr().err
    assert err.strip() == (
        f"ringflow: error on rank 0: OSError: --checkpoint-dir '{ckpt}': writing the checkpoint of step 4 to "
        f"'{ckpt / 'model.ckpt-4'}' failed (No space left on device); the newest intact checkpoint, "
        f"'{ckpt / 'model.ckpt-2'}', is kept: free space (or give --checkpoint-dir on another file system) and run "
        "the same command again to resume from it"), err
    assert sorted(os.listdir(ckpt)) == ["checkpoint"] + tf_files(2)  # no temporary file, the lock released
    monkeypatch.undo()  # space freed: the same command resumes from step 2
    cli.main(["train", *SMALL, "--steps", "6", "--no-progress", "--checkpoint-every-steps", "2",
              "--checkpoint-dir", str(ckpt), "--metrics-json", str(tmp_path / "m.json")])
    assert json.loads((tmp_path / "m.json").read_text())["resumed_from_step"] == 2


def test_timed_checkpoints_come_every_secs_on_every_rank_after_the_same_step(tmp_path):
    ckpt = tmp_path / "ckpt"
    out = mpiexec("-n", 2, "ringflow", *SMALL, "--steps", 3000, "--log-every", 3000, "--checkpoint-dir", ckpt,
                  "--checkpoint-every-secs", 0.1, "--keep-checkpoints", 1000)
    assert out.returncode == 0, out.stderr
    assert f"ringflow: checkpoints to '{ckpt}' every 0.1 s (the next at about " in out.stdout
    assert re.search(r"\d\d:\d\d:\d\d\) and at the end\n", out.stdout), out.stdout
    steps = sorted(int(name.split("-")[1].split(".")[0]) for name in os.listdir(ckpt) if name.endswith(".index"))
    assert steps[-1] == 3000 and len(steps) >= 3, steps  # at least two timed ones before the last
    times = [os.path.getmtime(ckpt / f"model.ckpt-{step}.index") for step in steps[:-1]]
    assert all(later - earlier > 0.08 for earlier, later in zip(times, times[1:])), times
    off = ringflow(*SMALL, "--steps", 3, "--checkpoint-dir", tmp_path / "off", "--checkpoint-every-secs", 0)
    assert off.returncode == 0 and f"ringflow: checkpoints to '{tmp_path / 'off'}' at the end\n" in off.stdout
