"""tf.keras.losses: per-sample loss functions (mean over the last axis, as Keras) and their Loss classes."""
from . import backend as K
from .utils.generic_utils import deserialize_keras_object


def mean_squared_error(y_true, y_pred):
    return K.mean(K.square(y_pred - y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    return K.mean(K.abs(y_pred - y_true), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    diff = K.abs((y_true - y_pred) / K.clip(K.abs(y_true), K.epsilon(), None))
    return 100.0 * K.mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    first = K.log(K.clip(y_pred, K.epsilon(), None) + 1.0)
    second = K.log(K.clip(y_true, K.epsilon(), None) + 1.0)
    return K.mean(K.square(first - second), axis=-1)


def signed_labels(y_true):
    """Labels that are all 0 or 1 as -1 or 1 (TF 1.15's hinge losses take either); other labels as they are."""
    binary = K.all(K.equal(y_true, 0.0) | K.equal(y_true, 1.0))
    return y_true + K.cast(binary, K.dtype(y_true)) * (y_true - 1.0)


def squared_hinge(y_true, y_pred):
    y_true = signed_labels(K.cast(y_true, K.dtype(y_pred)))
    return K.mean(K.square(K.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def hinge(y_true, y_pred):
    y_true = signed_labels(K.cast(y_true, K.dtype(y_pred)))
    return K.mean(K.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def categorical_hinge(y_true, y_pred):
    pos = K.sum(y_true * y_pred, axis=-1)
    neg = K.max((1.0 - y_true) * y_pred, axis=-1)
    return K.maximum(0.0, neg - pos + 1.0)


def logcosh(y_true, y_pred):
    x = y_pred - y_true
    return K.mean(x + K.softplus(-2.0 * x) - 0.6931471805599453, axis=-1)  # log(cosh x), stable; 0.69... = log 2


def categorical_crossentropy(y_true, y_pred, from_logits=False):
    return K.categorical_crossentropy(y_true, y_pred, from_logits=from_logits)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False):
    return K.sparse_categorical_crossentropy(y_true, y_pred, from_logits=from_logits)


def binary_crossentropy(y_true, y_pred, from_logits=False):
    return K.mean(K.binary_crossentropy(y_true, y_pred, from_logits=from_logits), axis=-1)


def kullback_leibler_divergence(y_true, y_pred):
    y_true = K.clip(y_true, K.epsilon(), 1)
    y_pred = K.clip(y_pred, K.epsilon(), 1)
    return K.sum(y_true * K.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    return K.mean(y_pred - y_true * K.log(y_pred + K.epsilon()), axis=-1)


def cosine_proximity(y_true, y_pred):
    return -K.sum(K.l2_normalize(y_true, axis=-1) * K.l2_normalize(y_pred, axis=-1), axis=-1)


def cosine_similarity(y_true, y_pred, axis=-1):
    """Minus the cosine of the angle between labels and predictions along `axis` (a loss to minimize)."""
    return -K.sum(K.l2_normalize(y_true, axis=axis) * K.l2_normalize(y_pred, axis=axis), axis=axis)


def huber_loss(y_true, y_pred, delta=1.0):
    """0.5 error**2 where |error| <= delta, else delta (|error| - 0.5 delta), elementwise (TF 1.15 takes no
    mean over the last axis)."""
    error = K.abs(y_pred - y_true)
    quadratic = K.minimum(error, delta)
    return 0.5 * K.square(quadratic) + delta * (error - quadratic)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence
cosine = cosine_proximity


class Loss:
    """A loss object: called with (y_true, y_pred, sample_weight) it returns the weighted mean over samples."""

    def __init__(self, reduction="sum_over_batch_size", name=None):
        self.reduction, self.name = reduction, name

    def call(self, y_true, y_pred):
        raise NotImplementedError(f"{type(self).__name__} must define call(y_true, y_pred)")

    def __call__(self, y_true, y_pred, sample_weight=None):
        losses = self.call(y_true, y_pred)
        if sample_weight is not None:
            while K.ndim(sample_weight) < K.ndim(losses):  # per sample, on elementwise losses (Huber)
                sample_weight = K.expand_dims(sample_weight, -1)
            losses = losses * sample_weight
        if self.reduction == "none":
            return losses
        total = K.sum(losses)
        return total if self.reduction == "sum" else total / K.cast(K.prod(K.shape(losses)), K.dtype(total))

    def get_config(self):
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _loss_class(class_name, fn, has_logits=False):
    def __init__(self, from_logits=False, reduction="sum_over_batch_size", name=None):
        Loss.__init__(self, reduction=reduction, name=name or fn.__name__)
        self.from_logits = from_logits

    def call(self, y_true, y_pred):
        return fn(y_true, y_pred, from_logits=self.from_logits) if has_logits else fn(y_true, y_pred)

    def get_config(self):
        return dict(Loss.get_config(self), **({"from_logits": self.from_logits} if has_logits else {}))

    return type(class_name, (Loss,), {"__init__": __init__, "call": call, "get_config": get_config, "fn": fn,
                                      "__doc__": f"Loss object of {fn.__name__}.", "__module__": __name__})


MeanSquaredError = _loss_class("MeanSquaredError", mean_squared_error)
MeanAbsoluteError = _loss_class("MeanAbsoluteError", mean_absolute_error)
MeanAbsolutePercentageError = _loss_class("MeanAbsolutePercentageError", mean_absolute_percentage_error)
MeanSquaredLogarithmicError = _loss_class("MeanSquaredLogarithmicError", mean_squared_logarithmic_error)
Hinge = _loss_class("Hinge", hinge)
SquaredHinge = _loss_class("SquaredHinge", squared_hinge)
CategoricalHinge = _loss_class("CategoricalHinge", categorical_hinge)
LogCosh = _loss_class("LogCosh", logcosh)
KLDivergence = _loss_class("KLDivergence", kullback_leibler_divergence)
Poisson = _loss_class("Poisson", poisson)
CosineProximity = _loss_class("CosineProximity", cosine_proximity)
BinaryCrossentropy = _loss_class("BinaryCrossentropy", binary_crossentropy, has_logits=True)
CategoricalCrossentropy = _loss_class("CategoricalCrossentropy", categorical_crossentropy, has_logits=True)
SparseCategoricalCrossentropy = _loss_class("SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
                                            has_logits=True)


class Huber(Loss):
    """Loss object of the Huber loss: quadratic up to |error| = delta, linear beyond."""

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss"):
        super().__init__(reduction=reduction, name=name)
        self.delta = delta

    def call(self, y_true, y_pred):
        return huber_loss(y_true, y_pred, self.delta)

    def get_config(self):
        return dict(super().get_config(), delta=self.delta)


class CosineSimilarity(Loss):
    """Loss object of cosine_similarity along `axis`."""

    def __init__(self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity"):
        super().__init__(reduction=reduction, name=name)
        self.axis = axis

    def call(self, y_true, y_pred):
        return cosine_similarity(y_true, y_pred, self.axis)

    def get_config(self):
        return dict(super().get_config(), axis=self.axis)

_FUNCTIONS = (mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
              mean_squared_logarithmic_error, squared_hinge, hinge, categorical_hinge, logcosh,
              categorical_crossentropy, sparse_categorical_crossentropy, binary_crossentropy,
              kullback_leibler_divergence, poisson, cosine_proximity, cosine_similarity)
_BY_NAME = dict({f.__name__: f for f in _FUNCTIONS}, mse=mse, MSE=mse, mae=mae, MAE=mae, mape=mape, MAPE=mape,
                msle=msle, MSLE=msle, kld=kld, KLD=kld, cosine=cosine)
_BY_NAME.update({c.__name__: c for c in (MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError,
                                         MeanSquaredLogarithmicError, Hinge, SquaredHinge, CategoricalHinge, LogCosh,
                                         KLDivergence, Poisson, CosineProximity, BinaryCrossentropy,
                                         CategoricalCrossentropy, SparseCategoricalCrossentropy, Huber,
                                         CosineSimilarity)})


def serialize(loss):
    return loss.__name__ if hasattr(loss, "__name__") else {"class_name": type(loss).__name__,
                                                             "config": loss.get_config()}


def deserialize(name, custom_objects=None):
    return deserialize_keras_object(name, _BY_NAME, custom_objects, "loss function")


def get(identifier):
    """A loss from a name ('mse'), a config dict, a function or Loss object (as is)."""
    if identifier is None or callable(identifier) and not isinstance(identifier, type):
        return identifier
    if isinstance(identifier, str):
        if identifier not in _BY_NAME or isinstance(_BY_NAME[identifier], type):
            return deserialize(identifier)
        return _BY_NAME[identifier]
    if isinstance(identifier, dict):
        return deserialize(identifier)
    raise ValueError(f"Could not interpret loss function identifier: {identifier!r}")
