"""tf.contrib.learn's ModeKeys, the modes an old-style model_fn(features, targets, mode) is called in, and
ModelFnOps, what it returns.

INFER is "infer", the very string tf.estimator.ModeKeys.PREDICT is in TF1, so a model_fn written against
contrib's keys and handed to tf.estimator.Estimator sees its own INFER when the Estimator predicts.
"""
import collections

from ......estimator.mode_keys import ModeKeys as CoreModeKeys
from ......estimator.model_fn import EstimatorSpec


class ModeKeys:
    """TRAIN, EVAL and INFER: what an Estimator asks of a model_fn."""

    TRAIN = CoreModeKeys.TRAIN
    EVAL = CoreModeKeys.EVAL
    INFER = CoreModeKeys.PREDICT

    @classmethod
    def validate(cls, key):
        """ValueError unless `key` is one of the three modes."""
        if key not in (cls.TRAIN, cls.EVAL, cls.INFER):
            raise ValueError(f"Invalid mode {key!r}: give one of {(cls.TRAIN, cls.EVAL, cls.INFER)!r}")


_OPS_FIELDS = ("mode", "predictions", "loss", "train_op", "eval_metric_ops", "output_alternatives",
               "training_chief_hooks", "training_hooks", "scaffold")


class ModelFnOps(collections.namedtuple("ModelFnOps", _OPS_FIELDS)):
    """What an old-style model_fn returns: TRAIN needs loss and train_op, EVAL loss, INFER predictions."""

    def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metric_ops=None,
                output_alternatives=None, training_chief_hooks=None, training_hooks=None, scaffold=None):
        ModeKeys.validate(mode)
        if mode == ModeKeys.TRAIN and train_op is None:
            raise ValueError("Missing train_op.")
        if mode != ModeKeys.INFER and loss is None:
            raise ValueError("Missing loss.")
        if predictions is None and mode == ModeKeys.INFER:
            raise ValueError("Missing predictions.")
        if output_alternatives is not None:
            raise NotImplementedError("ModelFnOps(output_alternatives=...): ringflow exports through "
                                      "tf.estimator's export_outputs; return tf.estimator.EstimatorSpec with them")
        return super().__new__(cls, mode, predictions if predictions is not None else {}, loss, train_op,
                               dict(eval_metric_ops or {}), None, list(training_chief_hooks or []),
                               list(training_hooks or []), scaffold)

    def estimator_spec(self, default_serving_output_alternative_key=None):
        """The same ops as a tf.estimator.EstimatorSpec."""
        return EstimatorSpec(self.mode, predictions=self.predictions, loss=self.loss, train_op=self.train_op,
                             eval_metric_ops=self.eval_metric_ops, training_chief_hooks=self.training_chief_hooks,
                             training_hooks=self.training_hooks, scaffold=self.scaffold)
