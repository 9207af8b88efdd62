"""tf.estimator: Estimator, its specs and RunConfig, train_and_evaluate, tf.estimator.inputs and the canned
estimators (DNN, Linear, DNNLinearCombined and Baseline classifiers, regressors and estimators) with TF1's heads
(binary_classification_head, multi_class_head, regression_head, which TF 1.15 keeps in tf.contrib.estimator).

Data-parallel training follows Horovod's Estimator pattern: hvd.DistributedOptimizer inside model_fn (or as a
canned estimator's optimizer), hvd.BroadcastGlobalVariablesHook(0) as a train hook, and model_dir only on rank 0
(None elsewhere: a temporary directory). Estimator.export_saved_model writes TF's SavedModel with the serving
inputs and ExportOutputs of tf.estimator.export. Exporters, warm starts, tf.distribute strategies, TF_CONFIG
clusters and the boosted trees estimators raise NotImplementedError saying what to do instead.
"""
from . import export, inputs, keras  # noqa: F401  (keras: registers tf.keras.estimator.model_to_estimator)
from .canned.baseline import BaselineClassifier, BaselineEstimator, BaselineRegressor
from .canned.boosted_trees import BoostedTreesClassifier, BoostedTreesEstimator, BoostedTreesRegressor
from .canned.dnn import DNNClassifier, DNNEstimator, DNNRegressor
from .canned.dnn_linear_combined import (DNNLinearCombinedClassifier, DNNLinearCombinedEstimator,
                                         DNNLinearCombinedRegressor)
from .canned.head import binary_classification_head, multi_class_head, regression_head
from .canned.linear import LinearClassifier, LinearEstimator, LinearRegressor
from .estimator import Estimator
from .mode_keys import ModeKeys
from .model_fn import EstimatorSpec
from .run_config import RunConfig
from .training import EvalSpec, TrainSpec, train_and_evaluate
from ..train.summary_and_checkpoint_hooks import (CheckpointSaverHook, CheckpointSaverListener, StepCounterHook,
                                                  SummarySaverHook)
from ..train.basic_session_run_hooks import (FeedFnHook, FinalOpsHook, GlobalStepWaiterHook, LoggingTensorHook,
                                             NanLossDuringTrainingError, NanTensorHook, StopAtStepHook)
from ..train.profiler_hook import ProfilerHook
from ..train.timer import SecondOrStepTimer
from ..train.session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues
from ..unsupported import missing_names

_SAVED_MODEL = ("Exporters for train_and_evaluate, which ringflow lacks: call estimator.export_saved_model(...) "
                "after training")
_V2_HEADS = ("TF 2's head classes (TF 1.15 has the v1 heads: tg.estimator.binary_classification_head, "
             "multi_class_head and regression_head)")
_MISSING = {
    "Exporter": _SAVED_MODEL, "FinalExporter": _SAVED_MODEL,
    "LatestExporter": _SAVED_MODEL, "BestExporter": _SAVED_MODEL,
    "WarmStartSettings": "warm starts: restore variables in a Scaffold(init_fn=...) with a tg.train.Saver",
    "VocabInfo": "warm starts with vocabularies", "experimental": "tf.estimator.experimental",
    "add_metrics": "tf.estimator.add_metrics: return the metrics in model_fn's eval_metric_ops",
    "classifier_parse_example_spec": "feature columns", "regressor_parse_example_spec": "feature columns",
    **{name: _V2_HEADS for name in ("BinaryClassHead", "MultiClassHead", "MultiHead", "MultiLabelHead",
                                    "PoissonRegressionHead", "RegressionHead", "LogisticRegressionHead", "Head")},
}
__getattr__ = missing_names(__name__, reasons=_MISSING, have="ringflow's tf.estimator has Estimator with its specs, "
                            "RunConfig, train_and_evaluate, the canned estimators and their heads, "
                            "tf.estimator.inputs and tf.estimator.export")
