"""Which GPU is this rank's: one answer, used by the session (device="gpu") and by the NCCL communicator.

A rank takes visible device (node-local rank % number of visible devices), Horovod's set_device(local_rank).
The count comes from the CUDA runtime, which numbers only the devices CUDA_VISIBLE_DEVICES lets through, so
with one visible GPU per rank (Slurm --gpus-per-task=1) every rank takes its device 0 -- a different physical
GPU each. Whether two ranks really drive different GPUs is decided by PCI bus id, not by index: index 0 on
two ranks may be two GPUs, and indices 0 and 1 may be one GPU listed twice.
"""
import os

from . import launcher


def launcher_local_rank():
    """This rank's index among the ranks on its node as the launcher says (launcher.py), or None."""
    return launcher.local_rank()


def local_rank(node_rank=None):
    """The node-local rank: the launcher's, else `node_rank` (the caller's MPI node rank), else 0 (alone)."""
    launcher = launcher_local_rank()
    if launcher is not None:
        return launcher
    return 0 if node_rank is None else node_rank


def gpu_index(rank_on_node, visible):
    """The visible device a rank with this node-local rank takes."""
    if visible < 1:
        raise RuntimeError(f"no CUDA device is visible to this process (CUDA_VISIBLE_DEVICES="
                           f"{os.environ.get('CUDA_VISIBLE_DEVICES')!r}): use device='cpu' or make a GPU visible")
    return rank_on_node % visible


def use_gpu(node_rank=None):
    """Make this rank's GPU CuPy's current device; returns its index among the visible devices."""
    import cupy
    index = gpu_index(local_rank(node_rank), cupy.cuda.runtime.getDeviceCount())
    cupy.cuda.Device(index).use()
    return index


def bus_id(index):
    """The PCI bus id of visible device `index` ("0000:3B:00.0"): the same string for one physical GPU
    whatever CUDA_VISIBLE_DEVICES numbers it."""
    import cupy
    return cupy.cuda.runtime.deviceGetPCIBusId(index).upper()


def sharing(bus_ids):
    """Groups of node ranks that drive one GPU, from each node rank's bus id: [(bus id, [ranks])]."""
    by_bus = {}
    for r, bus in enumerate(bus_ids):
        if bus is not None:
            by_bus.setdefault(bus, []).append(r)
    return [(bus, ranks) for bus, ranks in sorted(by_bus.items()) if len(ranks) > 1]
