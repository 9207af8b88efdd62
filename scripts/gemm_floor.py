"""The GEMMs of one ringflow step timed alone, with numpy and with PyTorch on the same shapes and layouts.

A step cannot run faster than its matrix products: where numpy's BLAS is slower than PyTorch's on those very
shapes, that alone sets a floor under ringflow's step against PyTorch's. `Recorder()` wraps numpy.dot and
numpy.matmul, where ringflow's kernels look them up (at call time, or when a plan builds its kernels), so make
it before the session and time steps in another process; `floor(calls)` replays what it recorded.
"""
import time

import numpy as np


class Recorder:
    """While `recording` is true, keeps a copy of the operands (same shapes, same memory order) of every
    numpy.dot and numpy.matmul call; the wrappers stay in place for the rest of the process."""

    def __init__(self):
        self.calls, self.recording = [], False
        for name in ("dot", "matmul"):
            setattr(np, name, self._wrap(getattr(np, name)))

    def _wrap(self, gemm):
        def recorded(a, b, out=None, **kwargs):
            if self.recording:
                self.calls.append((gemm, _copy(a), _copy(b), None if out is None else _copy(out)))
            return gemm(a, b, **kwargs) if out is None else gemm(a, b, out=out, **kwargs)
        return recorded


def _copy(a):
    return np.array(a, order="K", copy=True) if isinstance(a, np.ndarray) else a


def floor(calls, repeats=15, clock=time.process_time):
    """(numpy seconds, PyTorch seconds) for the recorded GEMMs, each the median over `repeats` rounds of the
    sum over all of them, the two interleaved round by round; products that are not 2-D by 2-D count numpy's
    time on both sides."""
    import torch
    torch.set_num_threads(1)
    numpy_calls = [(lambda g=g, a=a, b=b, o=o: g(a, b) if o is None else g(a, b, out=o)) for g, a, b, o in calls]
    torch_calls = []
    for (g, a, b, o), mine in zip(calls, numpy_calls):
        if np.ndim(a) == np.ndim(b) == 2:
            ta, tb = torch.from_numpy(a), torch.from_numpy(b)
            to = None if o is None else torch.from_numpy(o)
            torch_calls.append(lambda ta=ta, tb=tb, to=to: torch.mm(ta, tb) if to is None else torch.mm(ta, tb, out=to))
        else:
            torch_calls.append(mine)
    rounds = {"numpy": [], "torch": []}
    for fns in (numpy_calls, torch_calls):  # warm up
        for fn in fns:
            fn()
    for _ in range(repeats):
        for name, fns in (("numpy", numpy_calls), ("torch", torch_calls)):
            start = clock()
            for fn in fns:
                fn()
            rounds[name].append(clock() - start)
    return float(np.median(rounds["numpy"])), float(np.median(rounds["torch"]))
