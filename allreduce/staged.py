"""Device buckets reduced by a CPU backend: the path when ranks share a GPU (NCCL refuses that), when the user
picked a CPU backend for a device="gpu" session, or when the session runs on another registered device.

Each bucket is a device array with a host twin; a step copies every bucket to its twin, reduces the twins with
the CPU communicator and copies them back, so gradient kernels keep writing straight into device buckets.

- CuPy (`StagedBuckets`): the twins are pinned, the copies asynchronous on a copy stream. Each twin is reduced as
  soon as its own copy is done (the next bucket's copy is still in flight) and copied back; the compute stream
  waits for the copies back through an event. The host waits only for the copies it must read.
- Any other device (`HostStagedBuckets`): the copies go through the session's `to_host`/`to_device` (what
  register_device declared), and the twins are the communicator's own buckets (`allocate_buckets`: shared
  memory on "shm"), so nothing about the device is assumed beyond those two functions.
"""
import numpy as np

from .buckets import bucket_labels


class StagedBuckets:
    def __init__(self, communicator, counts_dtypes):
        import cupy
        import cupyx
        self.communicator, self.cupy = communicator, cupy
        self.arrays = [cupy.zeros(int(count), dtype) for count, dtype in counts_dtypes]
        self.host = [cupyx.empty_pinned((int(count),), dtype) for count, dtype in counts_dtypes]
        self.stream = cupy.cuda.Stream(non_blocking=True)

    def allreduce(self, op, what=None):
        cp, copies = self.cupy, self.stream
        compute = cp.cuda.get_current_stream()
        copies.wait_event(compute.record())  # the gradients are written before they are copied
        arrived = []
        for a, h in zip(self.arrays, self.host):
            a.get(stream=copies, out=h)  # asynchronous into pinned memory
            arrived.append(copies.record())
        for a, h, event, text in zip(self.arrays, self.host, arrived, bucket_labels(what, len(self.arrays))):
            event.synchronize()
            self.communicator.allreduce(h, op=op, out=h, what=text)
            a.set(h, stream=copies)
        compute.wait_event(copies.record())

    def close(self):
        """Pinned and device memory are freed with the arrays."""


class HostStagedBuckets:
    def __init__(self, communicator, counts_dtypes, to_device, to_host):
        self.to_device, self.to_host = to_device, to_host
        self.host = communicator.allocate_buckets(counts_dtypes)  # collective, like every bucket allocation
        self.arrays = [to_device(np.zeros(int(count), dtype)) for count, dtype in counts_dtypes]

    def allreduce(self, op, what=None):
        for a, h in zip(self.arrays, self.host.arrays):
            h[...] = self.to_host(a)
        self.host.allreduce(op, what)
        for a, h in zip(self.arrays, self.host.arrays):
            a[...] = self.to_device(h)  # a device-to-device copy: the bucket views stay the kernels' destinations

    def close(self):
        """The host twins are released as the communicator's buckets are (collective on "shm")."""
        self.host.close()


def device_buckets(communicator, device="gpu", to_device=None, to_host=None):
    """The bucket allocator for a session on `device`: on "gpu", NCCL's device buckets, else pinned staging;
    on any other registered device, staging through its to_device/to_host."""
    allocate = communicator.allocate_device_buckets if communicator.reduces_on_device else None
    if device == "gpu":
        return allocate or (lambda counts_dtypes: StagedBuckets(communicator, counts_dtypes))
    if allocate is not None:
        raise ValueError(f"the {communicator.name!r} communicator reduces CuPy arrays, but the session runs on device "
                         f"{device!r} (rank {communicator.rank}): use device='gpu', or a CPU backend such as 'mpi'")
    return lambda counts_dtypes: HostStagedBuckets(communicator, counts_dtypes, to_device, to_host)
