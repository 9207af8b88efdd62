"""FusedAllreduce's memory on the base communicator: plain numpy buckets, each reduced in place.

A backend that can reduce straight from memory it allocates itself (shm) returns its own kind from
`Communicator.allocate_buckets`; this is what every other backend gets.
"""
import numpy as np

from .diagnosis import label


class Buckets:
    """Plain numpy buckets: each is reduced in place by the communicator's allreduce."""

    def __init__(self, communicator, counts_dtypes):
        self.communicator = communicator
        self.arrays = [np.zeros(count, dtype) for count, dtype in counts_dtypes]

    def allreduce(self, op, what=None):
        for a, text in zip(self.arrays, bucket_labels(what, len(self.arrays))):
            self.communicator.allreduce(a, op=op, out=a, what=text)

    def close(self):
        """Release the buckets' memory (collective where it is shared); the arrays must no longer be used."""


def bucket_labels(what, n):
    """Each fused bucket's label: "step 7's gradient allreduce (bucket 1 of 2)"."""
    text = label(what, "fused allreduce")
    return [text] if n == 1 else [f"{text} (bucket {i} of {n})" for i in range(1, n + 1)]
