"""Checkpoints: one `.npz` per save (arrays by variable name plus a JSON `__meta__`), never pickled.

A save writes a temporary file, fsyncs it and renames it into place, so a crash leaves either the old set
or the new one, never a half file under a checkpoint's name. Only files named like ours (`ckpt-<step>.npz`)
are ever pruned, so nothing else in the directory is touched.
"""
import json
import os
import re
import warnings
import zipfile

import numpy as np

META = "__meta__"
_NAME = re.compile(r"^ckpt-(\d+)\.npz$")


def checkpoint_path(directory, step):
    return os.path.join(directory, f"ckpt-{int(step):08d}.npz")


def write_npz(path, arrays, meta=None):
    """Write arrays (name -> array) atomically as an .npz that np.load(allow_pickle=False) reads."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    entries = dict(arrays)
    if meta is not None:
        entries[META] = np.array(json.dumps(meta, sort_keys=True))
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
                for key, value in entries.items():
                    with zf.open(key + ".npy", "w", force_zip64=True) as member:
                        np.lib.format.write_array(member, np.asanyarray(value), allow_pickle=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    _fsync_dir(directory)
    return path


def _fsync_dir(directory):
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_npz(path):
    """(arrays, meta) from a file written by write_npz; meta is None when it has none."""
    with np.load(path, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f.files}
    meta = arrays.pop(META, None)
    return arrays, (json.loads(str(meta)) if meta is not None else None)


def save(directory, step, arrays, meta, keep=5):
    """Write checkpoint `step` to directory and keep only the newest `keep` checkpoints."""
    path = write_npz(checkpoint_path(directory, step), arrays, dict(meta, step=int(step)))
    if keep:
        for _, old in list_checkpoints(directory)[:-keep]:
            os.remove(old)
    return path


def list_checkpoints(directory):
    """[(step, path)] of every file named like a checkpoint, oldest first (not checked for damage)."""
    if not directory or not os.path.isdir(directory):
        return []
    found = []
    for name in os.listdir(directory):
        m = _NAME.match(name)
        if m:
            found.append((int(m.group(1)), os.path.join(directory, name)))
    return sorted(found)


def _problem(path):
    """Why path is not a usable checkpoint, or None when it is."""
    try:
        with zipfile.ZipFile(path) as zf:
            bad = zf.testzip()
            if bad is not None:
                return f"member {bad!r} fails its CRC check"
            if META + ".npy" not in zf.namelist():
                return f"it has no {META!r} record"
        read_npz(path)
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def latest_checkpoint(directory):
    """Path of the newest complete checkpoint in directory, or None; damaged ones are skipped with a warning."""
    for step, path in reversed(list_checkpoints(directory)):
        problem = _problem(path)
        if problem is None:
            return path
        warnings.warn(f"skipping damaged checkpoint {path!r}: {problem}", RuntimeWarning, stacklevel=2)
    return None
