"""The checkpoint file format: one `.npz` of arrays by name plus a JSON `__meta__` record, never pickled.

tg.train.Saver writes every checkpoint through write_npz: a temporary file, fsynced and renamed into place,
so a crash leaves either the old file or the new one, never a half file under a checkpoint's name.
problem() says why a file cannot be restored (truncated, a flipped byte, no record), so readers skip it.
"""
import json
import zipfile

import numpy as np

from ..platform.atomic_file import atomic_write

META = "__meta__"


def write_npz(path, arrays, meta=None):
    """Write arrays (name -> array) atomically as an .npz that np.load(allow_pickle=False) reads."""
    entries = dict(arrays)
    if meta is not None:
        entries[META] = np.array(json.dumps(meta, sort_keys=True))
    with atomic_write(path, "wb") as f:
        with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
            for key, value in entries.items():
                with zf.open(key + ".npy", "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, np.asanyarray(value), allow_pickle=False)
    return path


def read_npz(path):
    """(arrays, meta) from a file written by write_npz; meta is None when it has none."""
    with np.load(path, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f.files}
    meta = arrays.pop(META, None)
    return arrays, (json.loads(str(meta)) if meta is not None else None)


def problem(path):
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
