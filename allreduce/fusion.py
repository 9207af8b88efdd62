"""Tensor fusion: many small arrays (gradients) reduced as a few large flat buckets.

    fused = FusedAllreduce(communicator, [(w.shape, w.dtype) for w in params], bucket_bytes=25 * 2**20)
    for view, grad in zip(fused.views, grads):   # or let the backward pass write into fused.views directly
        view[...] = grad
    fused.allreduce(op="mean", what="step 7's gradient allreduce")  # in place: every view holds the mean

Arrays are packed in the order given (pass them in the order their gradients become ready, as PyTorch DDP
does) into persistent buckets of one dtype and at most bucket_bytes each (an array larger than that gets a
bucket of its own). `views[i]` is a view into its bucket, so nothing is packed or unpacked on the next step:
the reduction happens in the buckets and the views see the result.

The buckets come from `communicator.allocate_buckets`: plain numpy arrays reduced with `allreduce(out=)`,
except on "shm", where they live in a shared-memory window that the peers read directly (no copy-in).
Building a FusedAllreduce is therefore collective (every rank, same layout); `close()` frees the window.
"""
import numpy as np

from .ops import check_dtype


class FusedAllreduce:
    def __init__(self, communicator, shapes_dtypes, bucket_bytes=25 * 2**20, allocate=None):
        """allocate: the buckets' allocator, (count, dtype) list -> memory with .arrays, .allreduce(op, what) and
        .close(); default communicator.allocate_buckets (host memory); staged.device_buckets gives device memory."""
        if bucket_bytes <= 0:
            raise ValueError(f"bucket_bytes must be positive, got {bucket_bytes!r}")
        self.communicator, self.bucket_bytes = communicator, bucket_bytes
        layout, open_bucket = [], {}  # layout: (bucket index, offset, shape, dtype) per array
        sizes, dtypes = [], []
        for shape, dtype in shapes_dtypes:
            shape, dtype = tuple(shape), np.dtype(dtype)
            check_dtype(dtype)
            count = int(np.prod(shape, dtype=np.int64))
            b = open_bucket.get(dtype)
            if b is None or (sizes[b] + count) * dtype.itemsize > bucket_bytes:
                b = open_bucket[dtype] = len(sizes)
                sizes.append(0)
                dtypes.append(dtype)
            layout.append((b, sizes[b], shape, count))
            sizes[b] += count
        self.memory = (allocate or communicator.allocate_buckets)(list(zip(sizes, dtypes)))
        self.buckets = self.memory.arrays
        self.views = [self.buckets[b][off:off + count].reshape(shape) for b, off, shape, count in layout]

    def allreduce(self, arrays=None, op="mean", what=None):
        """Reduce every bucket in place (after copying `arrays` into the views, if given); returns the views.
        what: the label errors name the call by, e.g. "step 7's gradient allreduce" (" (bucket 1 of 2)" is added)."""
        if arrays is not None:
            if len(arrays) != len(self.views):
                raise ValueError(f"expected {len(self.views)} arrays, got {len(arrays)} at rank "
                                 f"{self.communicator.rank}")
            for view, a in zip(self.views, arrays):
                np.copyto(view, a)
        self.memory.allreduce(op, what)
        return self.views

    def close(self):
        """Free the buckets (collective on "shm"); views and buckets must not be used afterwards."""
        self.memory.close()
