"""tf.keras.wrappers.scikit_learn: a model-building function wrapped as a scikit-learn estimator (fit, predict,
score, get_params, set_params), as Keras 2.2.4-tf wraps it; scikit-learn itself is not needed to use them.

`build_fn` (a function, or an object with __call__; by default the wrapper's own __call__) returns a compiled
model; the keyword arguments given to the wrapper go to build_fn, fit, predict, evaluate and predict_classes by
their names."""
import copy
import inspect
import types

import numpy as np

from ..engine.sequential import Sequential
from ..losses import categorical_crossentropy
from ..utils.generic_utils import to_list
from ..utils.np_utils import to_categorical


def _arguments(fn):
    return inspect.signature(fn).parameters


class BaseWrapper:
    """What KerasClassifier and KerasRegressor share: the parameters and fit."""

    def __init__(self, build_fn=None, **sk_params):
        self.build_fn, self.sk_params = build_fn, sk_params
        self.check_params(sk_params)

    def _targets(self):
        if self.build_fn is None:
            return [self.__call__]
        if not isinstance(self.build_fn, (types.FunctionType, types.MethodType)):
            return [self.build_fn.__call__]
        return [self.build_fn]

    def check_params(self, params):
        """ValueError naming a parameter no function the wrapper calls takes."""
        legal = set()
        for fn in [Sequential.fit, Sequential.predict, Sequential.predict_classes, Sequential.evaluate] + \
                self._targets():
            legal.update(_arguments(fn))
        for name in params:
            if name not in legal and name != "nb_epoch":
                raise ValueError(f"{name} is not a legal parameter")

    def get_params(self, **params):
        """The wrapper's parameters, build_fn included (scikit-learn's get_params)."""
        res = copy.deepcopy(self.sk_params)
        res.update({"build_fn": self.build_fn})
        return res

    def set_params(self, **params):
        """Change parameters (scikit-learn's set_params); returns the wrapper."""
        self.check_params(params)
        self.sk_params.update(params)
        return self

    def filter_sk_params(self, fn, override=None):
        """The parameters `fn` takes, `override` winning."""
        taken = {k: v for k, v in self.sk_params.items() if k in _arguments(fn)}
        taken.update(override or {})
        return taken

    def fit(self, x, y, **kwargs):
        """Build the model anew and fit it; its History."""
        build = self._targets()[0]
        self.model = build(**self.filter_sk_params(build))
        loss = getattr(self.model, "loss", None)
        if (loss is categorical_crossentropy or loss == "categorical_crossentropy") and len(np.shape(y)) != 2:
            y = to_categorical(y)
        fit_args = self.filter_sk_params(Sequential.fit)
        fit_args.update(kwargs)
        return self.model.fit(x, y, **fit_args)


class KerasClassifier(BaseWrapper):
    """A scikit-learn classifier: the labels may be any sortable values (classes_), or one-hot rows."""

    def fit(self, x, y, sample_weight=None, **kwargs):
        y = np.array(y)
        if y.ndim == 2 and y.shape[1] > 1:
            self.classes_ = np.arange(y.shape[1])
        elif y.ndim == 1 or y.ndim == 2 and y.shape[1] == 1:
            self.classes_ = np.unique(y)
            y = np.searchsorted(self.classes_, y)
        else:
            raise ValueError(f"Invalid shape for y: {y.shape}")
        self.n_classes_ = len(self.classes_)
        if sample_weight is not None:
            kwargs["sample_weight"] = sample_weight
        return super().fit(x, y, **kwargs)

    def predict(self, x, **kwargs):
        """The predicted classes (values of classes_)."""
        classes = self.model.predict_classes(x, **self.filter_sk_params(Sequential.predict_classes, kwargs))
        return self.classes_[np.reshape(classes, -1) if np.ndim(classes) > 1 else classes]

    def predict_proba(self, x, **kwargs):
        """The class probabilities, (samples, classes); one sigmoid unit gives the two columns [1 - p, p]."""
        probs = self.model.predict(x, **self.filter_sk_params(Sequential.predict, kwargs))
        return np.hstack([1 - probs, probs]) if probs.shape[1] == 1 else probs

    def score(self, x, y, **kwargs):
        """The accuracy on (x, y): the model must compile with metrics=['accuracy']."""
        y = np.searchsorted(self.classes_, y)
        loss = getattr(self.model, "loss", None)
        if (loss is categorical_crossentropy or loss == "categorical_crossentropy") and len(y.shape) != 2:
            y = to_categorical(y)
        outputs = to_list(self.model.evaluate(x, y, **self.filter_sk_params(Sequential.evaluate, kwargs)))
        for name, output in zip(self.model.metrics_names, outputs):
            if name in ("accuracy", "acc"):
                return output
        raise ValueError('The model is not configured to compute accuracy. You should pass `metrics=["accuracy"]` to '
                         'the `model.compile()` method.')


class KerasRegressor(BaseWrapper):
    """A scikit-learn regressor."""

    def predict(self, x, **kwargs):
        """The predictions, squeezed."""
        return np.squeeze(self.model.predict(x, **self.filter_sk_params(Sequential.predict, kwargs)))

    def score(self, x, y, **kwargs):
        """Minus the loss on (x, y) (scikit-learn maximizes scores)."""
        loss = self.model.evaluate(x, y, **self.filter_sk_params(Sequential.evaluate, kwargs))
        return -loss[0] if isinstance(loss, list) else -loss
