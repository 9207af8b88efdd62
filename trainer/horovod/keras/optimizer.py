"""Horovod's Keras DistributedOptimizer and load_model: a Keras optimizer whose gradients are averaged over ranks.

As Horovod does, DistributedOptimizer(opt) is a new optimizer of a subclass of opt's class, made from opt's config:
the subclass keeps the class's name (so a saved model loads without Horovod) and says where it comes from with
Horovod's module name, 'horovod._keras'. Its get_gradients averages what the class's get_gradients returns
(after clipping) through parallel's gradient-averaging core: one fused bucket allreduce per dtype; with a
compressor, each gradient is its own hvd.allreduce so that compress -> reduce -> decompress acts on it.
backward_passes_per_step K sums K passes on each rank first (parallel's Accumulation) and applies every K-th.
"""
from ...keras import backend as K, models, optimizers
from ...ops.variables import local_variables, variables_initializer
from ...parallel.accumulation import Accumulation, check_passes
from ...parallel.averaging import average_gradients
from ..basics import communicator, size
from ..compression import Compression
from ..mpi_ops import Average, Sum, allreduce, reduction

MODULE = "horovod._keras"  # where Horovod's wrapped optimizer classes say they come from; users' code checks it


class Averaging:
    """What DistributedOptimizer was asked for: how a list of gradients is reduced over the ranks."""

    def __init__(self, compression, gradient_predivide_factor, op, passes, average_aggregated_gradients):
        self.compression, self.predivide = compression, float(gradient_predivide_factor)
        self.average = reduction(op) == "mean"
        if reduction(op) not in ("mean", "sum"):
            raise ValueError(f"DistributedOptimizer averages or sums gradients: op must be hvd.Average or hvd.Sum, "
                             f"got {op!r}")
        if self.predivide != 1.0 and not self.average:
            raise ValueError(f"gradient_predivide_factor={gradient_predivide_factor!r} needs op=hvd.Average")
        self.passes, self.mean_over_passes = check_passes(passes), bool(average_aggregated_gradients)
        self.communicator = communicator()  # needs hvd.init(), as Horovod's optimizer does

    def __call__(self, grads_and_vars):
        if size() == 1:
            return grads_and_vars
        f, op = self.predivide, Average if self.average else Sum
        if self.compression is Compression.none and f == 1.0:
            # sparse=False: Keras' optimizers have no sparse rule, so their gradients stay dense, as on one rank
            return average_gradients(grads_and_vars, self.communicator, average=self.average,
                                     overlap=False if self.passes > 1 else None, sparse=False)[0]
        if f == 1.0:
            return [(allreduce(g, op=op, compression=self.compression), v) for g, v in grads_and_vars]
        return [(allreduce(g, op=Sum, compression=self.compression, prescale_factor=1 / f,
                           postscale_factor=f / size()), v) for g, v in grads_and_vars]


class DistributedMixin:
    """The methods a wrapped optimizer class gains (Horovod's _DistributedOptimizer); `averaging` is the class's."""

    averaging = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._aggregated_gradients, self._accumulation = False, None

    def get_gradients(self, loss, params):
        return self._allreduce(super().get_gradients(loss, params), params)

    def _allreduce(self, grads, variables):
        """Horovod's name: the gradients reduced over the ranks (with backward_passes_per_step K: accumulated on
        this rank, reduced every K-th pass)."""
        self._aggregated_gradients = True
        pairs = list(zip(grads, variables))
        if self.averaging.passes == 1:
            return [g for g, _ in self.averaging(pairs)]
        before = set(local_variables())
        self._accumulation = Accumulation(self.averaging.passes, self.averaging.mean_over_passes)
        reduced = self._accumulation.compute(pairs, lambda summed, weight: self.averaging(summed))
        # Horovod initializes its accumulators itself under Keras, whose session initializes only global variables
        K.get_session().run(variables_initializer([v for v in local_variables() if v not in before]))
        return [g for g, _ in reduced]

    def apply_gradients(self, grads_and_vars, name=None):
        if not self._aggregated_gradients:
            raise ValueError(f"apply_gradients() of Horovod's {type(self).__name__} was called without get_gradients "
                             "(or _allreduce) first, so nothing was averaged over the ranks: build the step with "
                             "get_updates, or pass the gradients through get_gradients")
        if self._accumulation is None:
            return super().apply_gradients(grads_and_vars, name=name)
        grads_and_vars = list(grads_and_vars)
        self._create_all_weights([v for g, v in grads_and_vars if g is not None])
        return self._accumulation.apply(lambda: super(DistributedMixin, self).apply_gradients(grads_and_vars, name),
                                        self.iterations, step_every_pass=True)


def distributed_class(cls, averaging):
    """A subclass of the Keras optimizer class `cls` named as it is, whose gradients `averaging` reduces."""
    return type(cls.__name__, (DistributedMixin, cls), {"__module__": MODULE, "averaging": averaging})


def DistributedOptimizer(optimizer, name=None, device_dense="", device_sparse="", compression=Compression.none,
                         sparse_as_dense=False, gradient_predivide_factor=1.0, op=Average,
                         backward_passes_per_step=1, average_aggregated_gradients=False):
    """A new optimizer of `optimizer`'s class (a subclass named as it is) and config whose get_gradients averages
    (op=hvd.Sum: sums) over all ranks (Horovod's hvd.keras.DistributedOptimizer). Needs hvd.init() first.
    gradient_predivide_factor f divides each gradient by f before the sum and multiplies the sum by f / size().
    name, device_dense, device_sparse and sparse_as_dense are accepted and ignored: ringflow's gradients are
    dense and run where the session runs."""
    if not isinstance(optimizer, optimizers.Optimizer) or isinstance(optimizer, optimizers.TFOptimizer):
        raise ValueError(f"hvd.keras.DistributedOptimizer wraps a Keras optimizer (keras.optimizers.Adam(), ...), "
                         f"got {optimizer!r}; wrap a tf.train optimizer in horovod.tensorflow's "
                         "DistributedOptimizer instead")
    averaging = Averaging(compression, gradient_predivide_factor, op, backward_passes_per_step,
                          average_aggregated_gradients)
    return distributed_class(type(optimizer), averaging).from_config(optimizer.get_config())


def load_model(filepath, custom_optimizers=None, custom_objects=None, compression=Compression.none):
    """keras.models.load_model with the saved optimizer wrapped in DistributedOptimizer (its state restored), in
    Horovod's argument order: `custom_optimizers` lists optimizer classes of the user's own (by class name, as the
    file names them); `custom_objects` is Keras' and wins over both (a factory there is called with the config)."""
    def wrap(cls):
        return lambda **config: DistributedOptimizer(cls(**config), compression=compression)

    builtins = [cls for cls in optimizers.Optimizer.__subclasses__() if cls.__module__ == optimizers.__name__
                and cls is not optimizers.TFOptimizer]
    horovod_objects = {cls.__name__.lower(): wrap(cls) for cls in builtins}
    horovod_objects.update((cls.__name__, wrap(cls)) for cls in custom_optimizers or ())
    horovod_objects.update(custom_objects or {})
    return models.load_model(filepath, custom_objects=horovod_objects)
