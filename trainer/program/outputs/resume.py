"""Which checkpoint `ringflow train` resumes from. Only the chief calls this: only it reads checkpoint files.

The newest intact and finite checkpoint the `checkpoint` state file lists (damaged ones, and ones holding
NaN or inf, as an older ringflow wrote during a diverging run, are skipped with a warning); when there is
none, the newest such file of the layout ringflow wrote before it used tg.train.Saver, `ckpt-<step>.npz`
with variables under their graph names ("dense/kernel:0"), so a run started with an older ringflow still
resumes.
"""
import os
import re
import warnings
from typing import NamedTuple, Optional

from ...train import checkpoint as npz
from ...parallel.nonfinite import first_nonfinite
from ...train.saver import Saver
from ...train.checkpoint_management import checkpoint_meta, latest_checkpoint, list_variables

_LEGACY_NAME = re.compile(r"^ckpt-(\d+)\.npz$")


class Checkpoint(NamedTuple):
    path: str  # what saver.restore() takes: a prefix, or an older ringflow's .npz file
    saver: Saver  # the Saver whose names match the file's
    meta: Optional[dict]  # what the program saved with it (data position, random streams), None if nothing


def find_checkpoint(directory, saver, variables):
    """The Checkpoint to resume from in directory, or None to start afresh; raises if it holds another model."""
    prefix = newest_usable_checkpoint(directory)
    if prefix is not None:
        check_fits(prefix, {v.op.name: v for v in variables})
        return Checkpoint(prefix, saver, checkpoint_meta(prefix))
    path = latest_legacy_checkpoint(directory)
    if path is None:
        return None
    by_name = {v.name: v for v in variables}
    check_fits(path, by_name)
    return Checkpoint(path, Saver(var_list=by_name), npz.read_npz(path)[1])


def check_fits(path, wanted):
    """Raise ValueError unless the checkpoint holds exactly the variables `wanted` (name -> Variable)."""
    shapes = dict(list_variables(path))
    missing, extra = sorted(set(wanted) - set(shapes)), sorted(set(shapes) - set(wanted))
    if missing or extra:
        raise ValueError(f"checkpoint {path!r} does not fit this model: missing {missing!r}, unexpected "
                         f"{extra!r}. It was written by another --model/--optimizer: use another "
                         "--checkpoint-dir (or move its files away) to start afresh")
    for name, var in wanted.items():
        if shapes[name] != var.shape.as_list():
            raise ValueError(f"checkpoint {path!r}: variable {name!r} has shape {tuple(shapes[name])}, the "
                             f"model's is {tuple(var.shape.as_list())}: it was written by another model "
                             "configuration (--hidden?); use another --checkpoint-dir to start afresh")


def latest_legacy_checkpoint(directory):
    """Path of the newest intact `ckpt-<step>.npz` in directory, or None; damaged ones are warned about."""
    if not directory or not os.path.isdir(directory):
        return None
    found = sorted((int(m.group(1)), name) for name in os.listdir(directory) if (m := _LEGACY_NAME.match(name)))
    for _, name in reversed(found):
        path = os.path.join(directory, name)
        problem = unusable(path)
        if problem is None:
            return path
        warnings.warn(f"skipping checkpoint {path!r}: {problem}", RuntimeWarning, stacklevel=2)
    return None


def newest_usable_checkpoint(directory):
    """tg.train.latest_checkpoint's choice, also passing over checkpoints with NaN or inf in a variable."""
    if not directory or not os.path.isdir(directory):
        return None
    return latest_checkpoint(directory, problem=unusable)


def unusable(path):
    """Why the checkpoint file at path cannot be resumed from (missing, damaged, not finite), or None."""
    if not os.path.isfile(path):
        return "its file does not exist"
    problem = npz.problem(path)
    if problem is not None:
        return problem
    bad = first_nonfinite(sorted(npz.read_npz(path)[0].items()))
    if bad is not None:
        name, what, count = bad
        return f"{name!r} holds {what} ({count} variable(s) not finite): it was written after the run diverged"
    return None
