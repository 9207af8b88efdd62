"""The checkpoint files: TF's tensor bundle (tensor_bundle.py, what tg.train.Saver writes, as TF1 does) and
ringflow's earlier single `.npz` of arrays by name (still read, and written by Saver(save_format="npz")). Both
hold ringflow's JSON record (a program's data position, random streams) under the reserved name `__meta__`: in
a bundle as a string tensor, which TF reads as one more tensor.

Every file is written atomically (a temporary file, fsynced and renamed into place), so a crash leaves either
the old file or the new one, never a half file under a checkpoint's name. problem() says why a checkpoint
cannot be restored (truncated, a flipped byte, no record), so readers skip it.
"""
import json
import zipfile

import numpy as np

from ..platform.atomic_file import atomic_write
from ..framework.tensor_bundle import INDEX, bundle_problem, read_bundle, write_bundle

META = "__meta__"
NPZ = ".npz"


def write(prefix, arrays, meta=None, save_format="tf", shards=None):
    """Write the checkpoint `prefix` (TF's bundle, or "<prefix>.npz"); returns the file that marks it.
    `shards` (lists of names) splits a bundle's data into one file per list; the record goes with the first."""
    if save_format == "npz":
        return write_npz(prefix + NPZ, arrays, meta)
    if save_format != "tf":
        raise ValueError(f"Unknown checkpoint save_format {save_format!r}: use 'tf' (TF's .index and .data "
                         "files) or 'npz' (one .npz file, ringflow's earlier format)")
    entries = dict(arrays)
    if meta is not None:
        entries[META] = np.array(json.dumps(meta, sort_keys=True).encode("utf-8"), dtype=object)
        if shards:
            shards = [list(shards[0]) + [META]] + list(shards[1:])
    return write_bundle(prefix, entries, shards)


def read(path):
    """(arrays, meta) of a checkpoint's file: "<prefix>.index" (TF's bundle) or an .npz."""
    if not path.endswith(INDEX):
        return read_npz(path)
    arrays = read_bundle(path[:-len(INDEX)])
    meta = arrays.pop(META, None)
    return arrays, (json.loads(meta[()].decode("utf-8")) if meta is not None else None)


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
    """Why the checkpoint whose file is path (an .index or an .npz) is not usable, or None when it is."""
    if path.endswith(INDEX):  # TF's own checkpoints have no record: a bundle needs none
        return bundle_problem(path[:-len(INDEX)])
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
