"""Horovod's Keras DistributedOptimizer and load_model: a Keras optimizer whose gradients are averaged over ranks.

The averaging is the Keras optimizer's `gradient_aggregator` (applied after clipping, as Horovod averages what
get_gradients returns), and goes through parallel's gradient-averaging core: one fused bucket allreduce per dtype;
with a compressor, each gradient is its own hvd.allreduce so that compress -> reduce -> decompress acts on it.
"""
import copy

from ...keras import models, optimizers
from ...parallel.averaging import average_gradients
from ..basics import communicator, size
from ..compression import Compression
from ..mpi_ops import Average, Sum, allreduce


class GradientAverage:
    """A Keras gradient_aggregator: [(gradient, variable)] with each gradient averaged over all ranks."""

    def __init__(self, compression=Compression.none, gradient_predivide_factor=1.0):
        self.compression, self.predivide = compression, float(gradient_predivide_factor)
        self.communicator = communicator()  # needs hvd.init(), as Horovod's optimizer does

    def __call__(self, grads_and_vars):
        if size() == 1:
            return grads_and_vars
        f = self.predivide
        if self.compression is Compression.none and f == 1.0:
            return average_gradients(grads_and_vars, self.communicator)[0]
        if f == 1.0:
            return [(allreduce(g, op=Average, compression=self.compression), v) for g, v in grads_and_vars]
        return [(allreduce(g, op=Sum, compression=self.compression, prescale_factor=1 / f,
                           postscale_factor=f / size()), v) for g, v in grads_and_vars]


def DistributedOptimizer(optimizer, name=None, device_dense="", device_sparse="", compression=Compression.none,
                         sparse_as_dense=False, gradient_predivide_factor=1.0):
    """An optimizer of `optimizer`'s class and config whose get_gradients averages over all ranks (Horovod's
    hvd.keras.DistributedOptimizer). It shares `optimizer`'s variables (iterations, learning rate, ...) rather
    than making a second set: a rank whose optimizer comes from hvd.load_model has one set, so every rank must have
    one for hvd.callbacks.BroadcastGlobalVariablesCallback to broadcast the same variables. name, device_dense,
    device_sparse and sparse_as_dense are accepted and ignored: ringflow's gradients are dense and run where the
    session runs."""
    if not isinstance(optimizer, optimizers.Optimizer) or isinstance(optimizer, optimizers.TFOptimizer):
        raise ValueError(f"hvd.keras.DistributedOptimizer wraps a Keras optimizer (keras.optimizers.Adam(), ...), "
                         f"got {optimizer!r}; wrap a tf.train optimizer in horovod.tensorflow's "
                         "DistributedOptimizer instead")
    aggregator = GradientAverage(compression, gradient_predivide_factor)
    wrapped = copy.copy(optimizer)
    wrapped.gradient_aggregator = aggregator
    return wrapped


class _Wrapped:
    """A custom_objects entry: deserializing the saved optimizer gives it wrapped in DistributedOptimizer."""

    def __init__(self, cls, compression):
        self.cls, self.compression = cls, compression

    def from_config(self, config):
        return self.cls.from_config(dict(config, gradient_aggregator=GradientAverage(self.compression)))


def load_model(filepath, custom_optimizers=None, custom_objects=None, compression=Compression.none):
    """keras.models.load_model with the saved optimizer wrapped in DistributedOptimizer (its state restored), in
    Horovod's argument order: `custom_optimizers` lists optimizer classes of the user's own (by class name, as the
    file names them), `custom_objects` is Keras' (its optimizer classes are wrapped too)."""
    classes = {cls.__name__: cls for cls in optimizers.Optimizer.__subclasses__() if cls is not optimizers.TFOptimizer}
    classes.update((cls.__name__, cls) for cls in custom_optimizers or ())
    classes.update((k, v) for k, v in (custom_objects or {}).items()
                   if isinstance(v, type) and issubclass(v, optimizers.Optimizer))
    wrapped = {name: _Wrapped(cls, compression) for name, cls in classes.items()}
    return models.load_model(filepath, custom_objects=dict(custom_objects or {}, **wrapped))
