"""Keras' stateful metrics, as TF 1.15 keeps them in graph mode: a Metric holds its running state in variables
(local variables, which Keras' session initializes), update_state() returns the op that adds a batch to them,
result() reads them and reset_states() zeroes them. Calling a metric updates it and returns the result.

Mean and Sum reduce values; a MeanMetricWrapper is the running mean of a per-sample function (compile runs those
as it runs the function itself, the mean kept by fit)."""
import numpy as np

from ...framework.graph import get_default_graph
from ...framework.graph_keys import GraphKeys
from ...framework.graph_wrappers import control_dependencies
from ...ops.core_ops import group
from ...ops.cwise_ops import squared_difference
from ...ops.division_ops import div_no_nan
from ...ops.variables import Variable
from .. import backend as K
from ..backend.session import track_variable
from ..engine.base_layer import Layer


def squeeze_or_expand(y_true, y_pred, sample_weight=None):
    """Labels and predictions of one rank, as Keras matches them: a trailing axis of 1 on the one with a rank more
    is squeezed; the sample weights get the rank of the predictions."""
    true_rank, pred_rank = K.ndim(y_true), K.ndim(y_pred)
    if true_rank is not None and pred_rank is not None:
        if pred_rank - true_rank == 1 and K.int_shape(y_pred)[-1] == 1:
            y_pred = K.squeeze(y_pred, -1)
        elif true_rank - pred_rank == 1 and K.int_shape(y_true)[-1] == 1:
            y_true = K.squeeze(y_true, -1)
    if sample_weight is not None:
        weight_rank, pred_rank = K.ndim(sample_weight), K.ndim(y_pred)
        if weight_rank is not None and pred_rank is not None:
            if weight_rank - pred_rank == 1 and K.int_shape(sample_weight)[-1] == 1:
                sample_weight = K.squeeze(sample_weight, -1)
            while K.ndim(sample_weight) < pred_rank:
                sample_weight = K.expand_dims(sample_weight, -1)
    return y_true, y_pred, sample_weight


class Metric(Layer):
    """Base of the stateful metrics: subclasses make their variables with add_weight in __init__ and give
    update_state(...) (an op) and result() (a tensor)."""

    def __init__(self, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype or K.floatx(), **kwargs)
        self.stateful, self.built = True, True
        self._variables = []

    def add_weight(self, name, shape=(), aggregation=None, synchronization=None, initializer=None, dtype=None):
        """A non-trainable state variable, zeros unless `initializer`, outside the global collection (TF 1.15 keeps
        metric state out of Savers) but initialized by Keras' session and tf.local_variables_initializer."""
        dtype = np.dtype(dtype or self.dtype)
        shape = tuple(int(d) for d in shape)
        value = np.zeros(shape, dtype) if initializer is None else initializer(shape, dtype=dtype)
        v = Variable(value, name=name, dtype=dtype, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES])
        track_variable(v)
        self._variables.append(v)
        self._non_trainable_weights.append(v)
        return v

    @property
    def variables(self):
        return list(self._variables)

    def __call__(self, *args, **kwargs):
        """Update the state with a batch; the result after that update."""
        with get_default_graph().name_scope(self.name):
            update = self.update_state(*args, **kwargs)
            with control_dependencies([update]):
                return K.identity(self.result())

    def update_state(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define update_state(...) -> op")

    def result(self):
        raise NotImplementedError(f"{type(self).__name__} must define result() -> tensor")

    def reset_states(self):
        """Zero the state (run now, in Keras' session)."""
        K.batch_set_value([(v, np.zeros(K.int_shape(v), v.dtype)) for v in self._variables])

    def get_config(self):
        return {"name": self.name, "dtype": np.dtype(self.dtype).name}


class Reduce(Metric):
    """The sum of weighted values (`total`) and, for means, of their weights (`count`)."""

    mean = True

    def __init__(self, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_weight("total")
        if self.mean:
            self.count = self.add_weight("count")

    def update_state(self, values, sample_weight=None):
        values = K.cast(values, self.dtype)
        if sample_weight is None:
            count = K.cast(K.prod(K.shape(values)), self.dtype)
        else:
            _, values, sample_weight = squeeze_or_expand(values, values, K.cast(sample_weight, self.dtype))
            sample_weight = sample_weight * K.ones_like(values)
            values, count = values * sample_weight, K.sum(sample_weight)
        updates = [self.total.assign_add(K.sum(values))]
        if self.mean:
            updates.append(self.count.assign_add(count))
        return group(*updates)

    def result(self):
        return div_no_nan(self.total, self.count) if self.mean else K.identity(self.total)


class Sum(Reduce):
    """The running (weighted) sum of the values."""

    mean = False

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)


class Mean(Reduce):
    """The running (weighted) mean of the values."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)


class MeanTensor(Metric):
    """The running elementwise mean of tensors of one shape (set by the first update)."""

    def __init__(self, name="mean_tensor", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.count = None

    def update_state(self, values, sample_weight=None):
        values = K.cast(values, self.dtype)
        shape = K.int_shape(values)
        if self.total is None:
            if shape is None or None in shape:
                raise ValueError(f"MeanTensor needs values of a known shape; got {shape!r}")
            self.total, self.count = self.add_weight("total", shape), self.add_weight("count", shape)
        elif shape != K.int_shape(self.total):
            raise ValueError(f"MeanTensor input values must always have the same shape. Expected shape (set during "
                             f"the first call): {K.int_shape(self.total)}. Got: {shape}")
        weights = K.ones_like(values)
        if sample_weight is not None:
            _, _, sample_weight = squeeze_or_expand(values, values, K.cast(sample_weight, self.dtype))
            weights, values = weights * sample_weight, values * sample_weight
        return group(self.total.assign_add(values), self.count.assign_add(weights))

    def result(self):
        if self.total is None:
            raise ValueError("MeanTensor does not have any result yet. Please call the MeanTensor instance or use "
                             "`.update_state(value)` before retrieving the result.")
        return div_no_nan(self.total, self.count)

    def reset_states(self):
        if self.total is not None:
            super().reset_states()


class MeanMetricWrapper(Mean):
    """The running mean of fn(y_true, y_pred, **kwargs) per sample."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self.fn, self.fn_kwargs = fn, kwargs

    def per_sample(self, y_true, y_pred):
        """The wrapped function on labels and predictions: what compile averages."""
        return self.fn(y_true, y_pred, **self.fn_kwargs)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = K.cast(y_true, self.dtype), K.cast(y_pred, self.dtype)
        y_true, y_pred, _ = squeeze_or_expand(y_true, y_pred)
        return super().update_state(self.per_sample(y_true, y_pred), sample_weight)

    def get_config(self):
        return dict(super().get_config(), **self.fn_kwargs)

    @classmethod
    def from_config(cls, config):
        if cls is MeanMetricWrapper:
            raise ValueError("MeanMetricWrapper(fn) has no config for its function: rebuild it with the function")
        return cls(**config)


class RootMeanSquaredError(Mean):
    """sqrt of the running mean of the squared errors."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = K.cast(y_true, self.dtype), K.cast(y_pred, self.dtype)
        y_true, y_pred, _ = squeeze_or_expand(y_true, y_pred)
        return super().update_state(squared_difference(y_pred, y_true), sample_weight)

    def result(self):
        return K.sqrt(div_no_nan(self.total, self.count))


class MeanRelativeError(Mean):
    """The running mean of |y_true - y_pred| / normalizer."""

    def __init__(self, normalizer, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.normalizer = np.asarray(normalizer, dtype=self.dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = K.cast(y_true, self.dtype), K.cast(y_pred, self.dtype)
        y_true, y_pred, _ = squeeze_or_expand(y_true, y_pred)
        errors = div_no_nan(K.abs(y_true - y_pred), K.constant(self.normalizer, dtype=self.dtype))
        return super().update_state(errors, sample_weight)

    def get_config(self):
        return dict(super().get_config(), normalizer=self.normalizer.tolist())
