"""Horovod's SyncBatchNormalization: tf.keras' BatchNormalization whose batch statistics, while training, are
those of the batches of all ranks together, so every rank normalizes by the global batch's mean and variance."""
from ..framework.graph_keys import GraphKeys
from ..framework.graph_wrappers import add_to_collection
from ..keras.layers.normalization import BatchNormalization
from ..ops.stack_ops import stack, unstack
from .basics import size
from .mpi_ops import Sum, allreduce


class SyncBatchNormalization(BatchNormalization):
    """BatchNormalization with the ranks' statistics averaged (equal batches on every rank, as Horovod assumes)."""

    def __init__(self, fused=False, **kwargs):
        if fused in (True, None):
            raise ValueError(f"SyncBatchNormalization does not support fused={fused!r}: pass fused=False (the "
                             "default), as in Horovod")
        kwargs.setdefault("name", "sync_batch_normalization")
        super().__init__(fused=fused, **kwargs)

    def _moments(self, inputs, reduction_axes, keep_dims):
        mean, variance = super()._moments(inputs, reduction_axes, keep_dims)
        if size() == 1:
            return mean, variance
        # Var[X] = E[X^2] - E[X]^2 over the global batch, from each rank's E[X] and E[X^2]
        total = allreduce(stack([mean, variance + mean * mean]), op=Sum) / float(size())
        global_mean, global_mean_of_square = unstack(total)
        return global_mean, global_mean_of_square - global_mean * global_mean

    def call(self, inputs, training=None):
        outputs = super().call(inputs, training=training)
        for update in self.updates:  # as Horovod does: TF1 programs run UPDATE_OPS beside the train op
            add_to_collection(GraphKeys.UPDATE_OPS, update)
        return outputs
