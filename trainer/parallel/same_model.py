"""Before the ranks average anything, they check that they built one model: the same variables, shapes and dtypes."""
import hashlib
import json

import numpy as np


def signature(variables):
    """(name, shape, dtype) of each variable, in order."""
    return [(v.name, v.shape.as_list() if v.ndim is not None else None, np.dtype(v.dtype).str) for v in variables]


def check_same_model(variables, communicator, what="variables"):
    """Raise on every rank, naming the variable and the ranks, unless every rank has the same variables."""
    if communicator.size == 1:
        return
    mine = signature(variables)
    digest = np.frombuffer(hashlib.sha256(json.dumps(mine).encode()).digest(), dtype=np.uint8).copy()
    digests = communicator.allgather(digest, what=f"the check that every rank built the same {what}")
    if (digests == digests[0]).all():
        return
    every = communicator.allgather_json(mine, what=f"the {what} of every rank, which differ")
    raise ValueError(describe_mismatch(every, communicator.rank, what))


def describe_mismatch(signatures, rank, what):
    """Name the first variable on which the ranks' signatures differ, and which ranks hold what."""
    for i in range(max(len(s) for s in signatures)):
        seen = {}
        for r, sig in enumerate(signatures):
            entry = tuple(map(str, sig[i])) if i < len(sig) else ("<missing>",)
            seen.setdefault(entry, []).append(r)
        if len(seen) > 1:
            held = "; ".join(f"{_entry_text(entry)} at rank(s) {ranks}" for entry, ranks in seen.items())
            return (f"ranks built different models (seen from rank {rank}): {what} #{i} differ: {held}. "
                    "Every rank must build the same graph (same --model, flags and code)")
    return f"ranks built different models (seen from rank {rank}): the {what} differ in number"


def _entry_text(entry):
    if entry == ("<missing>",):
        return "no variable"
    name, shape, dtype = entry
    return f"{name!r} shape {shape} dtype {np.dtype(dtype).name}"
