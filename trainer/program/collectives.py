"""JSON values between ranks: the checkpoint's random streams travel this way (they are nested dicts)."""
import json

import numpy as np


def gather_json(communicator, obj):
    """Every rank's JSON-able `obj`, in rank order, on every rank (collective)."""
    if communicator.size == 1:
        return [obj]
    data = np.frombuffer(json.dumps(obj).encode(), np.uint8)
    return [json.loads(part.tobytes()) for part in communicator.allgatherv_list(data)]


def broadcast_json(communicator, obj, root=0):
    """Root's JSON-able `obj` on every rank (collective; the other ranks' `obj` is ignored)."""
    if communicator.size == 1:
        return obj
    data = np.frombuffer(json.dumps(obj).encode(), np.uint8) if communicator.rank == root else None
    length = communicator.broadcast(np.array([0 if data is None else data.size], np.int64), root)[0]
    buffer = data if data is not None else np.zeros(int(length), np.uint8)
    return json.loads(communicator.broadcast(buffer, root).tobytes())
