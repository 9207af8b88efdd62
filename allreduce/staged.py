"""Device buckets reduced by a CPU backend: the path when ranks share a GPU (NCCL refuses that) or the user
picked a CPU backend for a device="gpu" session.

Each bucket is a device array with a pinned host twin. A step copies each bucket to its twin asynchronously on
a copy stream, reduces the twin on the host with the CPU communicator as soon as that bucket's copy is done
(the next bucket's copy is still in flight), and copies it back asynchronously; the compute stream waits for
the copies back through an event. The host waits only for the copies it must read.
"""
from .communicator import bucket_labels


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


def device_buckets(communicator):
    """The bucket allocator for a device="gpu" session: NCCL's device buckets, else staged ones."""
    allocate = getattr(communicator, "allocate_device_buckets", None)
    if allocate is not None:
        return allocate
    return lambda counts_dtypes: StagedBuckets(communicator, counts_dtypes)
