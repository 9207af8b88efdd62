"""Which checkpoint `ringflow train` resumes from. Only the chief calls this: only it reads checkpoint files.

The newest intact and finite checkpoint the `checkpoint` state file lists (damaged ones, and ones holding
NaN or inf, as an older ringflow wrote during a diverging run, are skipped with a warning). When the state
file is missing, unreadable or lists no intact checkpoint, the newest intact `model.ckpt-<step>` in the
directory (TF's `.index` and `.data` files, or the one `.npz` file ringflow wrote before), with a warning that
says so: a lost state file must never make a run start again from step 0 and overwrite the checkpoints beside
it. (TF1's tf.train.latest_checkpoint, which library programs call, still returns None without a state file.)
When there is none, the newest such file of the layout ringflow wrote before it used tg.train.Saver,
`ckpt-<step>.npz` with variables under their graph names ("dense/kernel:0"), so a run started with an older
ringflow still resumes.
"""
import os
import re
import warnings
from typing import NamedTuple, Optional

from ... import data
from ...train import checkpoint as npz
from ...parallel.nonfinite import first_nonfinite
from ...train.saver import Saver
from ...train.checkpoint_management import (STATE_FILENAME, SUFFIX, checkpoint_meta, data_path,
                                            get_checkpoint_state, latest_checkpoint, list_variables,
                                            parse_checkpoint_state)
from ...framework.tensor_bundle import INDEX

BASENAME = "model.ckpt"  # CheckpointHook's file names: model.ckpt-<step>.index and .data-00000-of-00001
_LEGACY_NAME = re.compile(r"^ckpt-(\d+)\.npz$")
# what `ringflow train` keeps in a checkpoint's record beside the variables, and why a resume needs it
RECORD_KEYS = {"data": "the data position", "random": "every rank's random-op streams"}


class Checkpoint(NamedTuple):
    path: str  # what saver.restore() takes: a prefix, or an older ringflow's .npz file
    saver: Saver  # the Saver whose names match the file's
    meta: Optional[dict]  # what the program saved with it (data position, random streams), None if nothing


def find_checkpoint(directory, saver, variables, basename=BASENAME):
    """The Checkpoint to resume from in directory, or None to start afresh; raises if it holds another model."""
    prefix = newest_usable_checkpoint(directory)
    if prefix is None:
        prefix = newest_checkpoint_file(directory, basename)
    if prefix is not None:
        check_fits(prefix, {v.op.name: v for v in variables})
        return Checkpoint(prefix, saver, checkpoint_meta(prefix))
    path = latest_legacy_checkpoint(directory)
    if path is None:
        return None
    by_name = {v.name: v for v in variables}
    check_fits(path, by_name)
    return Checkpoint(path, Saver(var_list=by_name), npz.read_npz(path)[1])


def check_record(checkpoint, directory, num_examples):
    """Raise ValueError naming the file and the key unless `checkpoint` holds what `ringflow train` needs to
    continue exactly (RECORD_KEYS; an older ringflow's files kept no random streams) on a dataset of
    num_examples; the remedy is to move that file away and resume from the one before it."""
    path = data_path(checkpoint.path)
    remedy = (f"it is damaged or was not written by `ringflow train`; move it out of --checkpoint-dir "
              f"{directory!r} to resume from an older one, or use another --checkpoint-dir")
    meta = checkpoint.meta if isinstance(checkpoint.meta, dict) else {}
    legacy = _LEGACY_NAME.match(os.path.basename(path))
    for key, what in RECORD_KEYS.items():
        if key not in meta and not (legacy and key == "random"):
            raise ValueError(f"checkpoint {path!r}: its record has no {key!r} key ({what}; it has "
                             f"{sorted(meta)!r}): {remedy}")
    position = meta["data"]
    try:
        data.check_state(position)
    except ValueError as exc:
        raise ValueError(f"checkpoint {path!r}: {exc}: {remedy}") from None
    if position["num_examples"] != num_examples:
        raise ValueError(f"checkpoint {path!r} was taken on a dataset of {position['num_examples']!r} "
                         f"examples, --dataset has {num_examples!r}: resume with the same --dataset, or use "
                         "another --checkpoint-dir")


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
    for _, name in reversed(_numbered(directory, _LEGACY_NAME)):
        path = os.path.join(directory, name)
        problem = unusable(path)
        if problem is None:
            return path
        warnings.warn(f"skipping checkpoint {path!r}: {problem}", RuntimeWarning, stacklevel=2)
    return None


def newest_usable_checkpoint(directory):
    """tg.train.latest_checkpoint's choice, also passing over checkpoints with NaN or inf in a variable; None
    (without latest_checkpoint's warning) when the state file is missing or unreadable."""
    if not directory or not os.path.isdir(directory) or state_problem(directory) is not None:
        return None
    return latest_checkpoint(directory, problem=unusable)


def _checkpoint_files(directory, basename):
    """[(step, file name)] of the `<basename>-<step>` checkpoints in directory by step: each one's `.index`, or
    its `.npz` where an older ringflow wrote that instead."""
    found = {}
    for step, name in _numbered(directory, re.compile(
            rf"^{re.escape(basename)}-(\d+)(?:{re.escape(INDEX)}|{re.escape(SUFFIX)})$")):
        found.setdefault(step, name)  # ".index" sorts before ".npz": TF's files win where both exist
    return sorted(found.items())


def _prefix(path):
    return path[:-len(INDEX)] if path.endswith(INDEX) else path[:-len(SUFFIX)]


def newest_checkpoint_file(directory, basename=BASENAME):
    """The prefix of the newest intact and finite `<basename>-<step>` checkpoint in directory, or None; used when
    the state file names none, and said with a warning (which also names the files skipped)."""
    found = _checkpoint_files(directory, basename)
    why = state_problem(directory) or "lists no intact checkpoint"
    skipped = []
    for _, name in reversed(found):
        path = os.path.join(directory, name)
        problem = unusable(path)
        if problem is None:
            prefix = _prefix(path)
            also = f" (skipped: {'; '.join(skipped)})" if skipped else ""
            warnings.warn(f"the `{STATE_FILENAME}` state file of --checkpoint-dir {directory!r} {why}: resuming "
                          f"from the newest intact checkpoint file, {prefix!r}{also}", RuntimeWarning, stacklevel=2)
            return prefix
        skipped.append(f"{name}: {problem}")
    if found or why != "is missing":
        warnings.warn(f"the `{STATE_FILENAME}` state file of --checkpoint-dir {directory!r} {why}, and no "
                      f"{basename}-<step> checkpoint there is intact" + (f" ({'; '.join(skipped)})" if skipped
                                                                            else ""),
                      RuntimeWarning, stacklevel=2)
    return None


def kept_checkpoints(directory, basename=BASENAME):
    """The checkpoint prefixes already in directory, oldest first: the state file's list, or when it is
    missing or unreadable, every `<basename>-<step>` checkpoint by step (so --keep-checkpoints counts them)."""
    if state_problem(directory) is None:
        return get_checkpoint_state(directory).all_model_checkpoint_paths
    return [_prefix(os.path.join(directory, name)) for _, name in _checkpoint_files(directory, basename)]


def state_problem(directory):
    """What is wrong with directory's `checkpoint` state file ("is missing", "is unreadable (...)"), or None."""
    path = os.path.join(directory, STATE_FILENAME)
    if not os.path.isfile(path):
        return "is missing"
    try:
        with open(path, encoding="utf-8") as f:
            state = parse_checkpoint_state(f.read(), where=path)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        return f"is unreadable ({exc})"
    return None if state.model_checkpoint_path else "names no checkpoint (no model_checkpoint_path)"


def _numbered(directory, pattern):
    """[(step, file name)] of the files in directory whose names match pattern (group 1: the step), by step."""
    if not directory or not os.path.isdir(directory):
        return []
    return sorted((int(m.group(1)), name) for name in os.listdir(directory) if (m := pattern.match(name)))


def unusable(path):
    """Why the checkpoint file at path cannot be resumed from (missing, damaged, not finite), or None."""
    if not os.path.isfile(path):
        return "its file does not exist"
    problem = npz.problem(path)
    if problem is not None:
        return problem
    bad = first_nonfinite(sorted(npz.read(path)[0].items()))
    if bad is not None:
        name, what, count = bad
        return f"{name!r} holds {what} ({count} variable(s) not finite): it was written after the run diverged"
    return None
