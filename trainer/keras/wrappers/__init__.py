"""tf.keras.wrappers: scikit_learn's KerasClassifier and KerasRegressor."""
from . import scikit_learn

__all__ = ["scikit_learn"]
