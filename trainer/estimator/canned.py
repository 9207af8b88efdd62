"""TF1's canned estimators (DNNClassifier, LinearRegressor, ...): not available (nor their heads).

Each is a class whose construction raises NotImplementedError naming what is missing and what to write instead.
"""

CANNED = ("BaselineClassifier", "BaselineEstimator", "BaselineRegressor", "BoostedTreesClassifier",
          "BoostedTreesEstimator", "BoostedTreesRegressor", "DNNClassifier", "DNNEstimator", "DNNRegressor",
          "DNNLinearCombinedClassifier", "DNNLinearCombinedEstimator", "DNNLinearCombinedRegressor",
          "LinearClassifier", "LinearEstimator", "LinearRegressor")


def _canned(name):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            f"tg.estimator.{name} is not implemented in ringflow: canned estimators (and their heads) are "
            "missing; write a model_fn with tg.feature_column.input_layer and tg.layers on the features dict "
            "and pass it to tg.estimator.Estimator")
    return type(name, (), {"__init__": __init__, "__doc__": f"TF1's {name}: raises NotImplementedError (canned "
                                                           "estimators are missing).", "__module__": __name__})


globals().update({name: _canned(name) for name in CANNED})
