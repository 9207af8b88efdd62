"""TF1's boosted trees estimators: not available.

Each is a class whose construction raises NotImplementedError naming what is missing and what to use instead.
"""

CANNED = ("BoostedTreesClassifier", "BoostedTreesEstimator", "BoostedTreesRegressor")


def _canned(name):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            f"tg.estimator.{name} is not implemented in ringflow: gradient boosted trees are missing; use "
            "tg.estimator.DNNClassifier / DNNRegressor or the Linear ones, or a model_fn of your own")
    return type(name, (), {"__init__": __init__, "__doc__": f"TF1's {name}: raises NotImplementedError (boosted "
                                                           "trees are missing).", "__module__": __name__})


globals().update({name: _canned(name) for name in CANNED})
