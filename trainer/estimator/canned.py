"""TF1's canned estimators (DNNClassifier, LinearRegressor, ...): not available, they are built on feature columns.

Each is a class whose construction raises NotImplementedError naming what is missing and what to write instead.
"""

CANNED = ("BaselineClassifier", "BaselineEstimator", "BaselineRegressor", "BoostedTreesClassifier",
          "BoostedTreesEstimator", "BoostedTreesRegressor", "DNNClassifier", "DNNEstimator", "DNNRegressor",
          "DNNLinearCombinedClassifier", "DNNLinearCombinedEstimator", "DNNLinearCombinedRegressor",
          "LinearClassifier", "LinearEstimator", "LinearRegressor")


def _canned(name):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            f"tg.estimator.{name} is not implemented in ringflow: canned estimators take tf.feature_column "
            "columns (and heads), which ringflow lacks; write a model_fn with tg.layers on a features dict of "
            "Tensors and pass it to tg.estimator.Estimator")
    return type(name, (), {"__init__": __init__, "__doc__": f"TF1's {name}: raises NotImplementedError (feature "
                                                           "columns are missing).", "__module__": __name__})


globals().update({name: _canned(name) for name in CANNED})
