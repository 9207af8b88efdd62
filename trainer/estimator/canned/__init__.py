"""TF1's canned estimators (tensorflow_estimator/python/estimator/canned/): heads, the optimizer names they take,
and the DNN, linear, combined and baseline models, each an Estimator whose model_fn is built from its arguments."""
