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

With split=True each bucket gets memory of its own, so `allreduce_bucket(b)` can reduce bucket b alone while
the backward pass still writes the others (trainer/parallel/bucket_ops.py starts each one as soon as it is full).
"""
import numpy as np

from .buckets import bucket_labels
from .ops import check_dtype


class FusedAllreduce:
    def __init__(self, communicator, shapes_dtypes, bucket_bytes=25 * 2**20, allocate=None, split=False):
        """allocate: the buckets' allocator, (count, dtype) list -> memory with .arrays, .allreduce(op, what) and
        .close(); default communicator.allocate_buckets (host memory); staged.device_buckets gives device memory.
        split: allocate every bucket on its own (one allocator call each) so each can be reduced alone."""
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
        allocate = allocate or communicator.allocate_buckets
        if split:
            self.memories = [allocate([(size, dtype)]) for size, dtype in zip(sizes, dtypes)]
            self.buckets = [memory.arrays[0] for memory in self.memories]
        else:
            self.memories = [allocate(list(zip(sizes, dtypes)))]
            self.buckets = self.memories[0].arrays
        self.split = split
        self.bucket_of = [b for b, _, _, _ in layout]  # per array, the index of the bucket holding its view
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
        if self.split:
            for b in range(len(self.buckets)):
                self.allreduce_bucket(b, op, what)
        else:
            self.memories[0].allreduce(op, what)
        return self.views

    def allreduce_bucket(self, b, op="mean", what=None):
        """Reduce bucket b alone, in place (split=True only); labelled like allreduce's " (bucket b+1 of n)"."""
        if not self.split:
            raise ValueError(f"bucket {b!r} cannot be reduced alone: its memory is shared with the other buckets; "
                             f"build the FusedAllreduce with split=True")
        self.memories[b].allreduce(op, bucket_labels(what, len(self.buckets))[b])

    def close(self):
        """Free the buckets (collective on "shm"); views and buckets must not be used afterwards."""
        for memory in self.memories:
            memory.close()
