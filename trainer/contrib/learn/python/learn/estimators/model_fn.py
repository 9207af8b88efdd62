"""tf.contrib.learn's ModeKeys: the modes an old-style model_fn(features, targets, mode) is called in.

INFER is "infer", the very string tf.estimator.ModeKeys.PREDICT is in TF1, so a model_fn written against
contrib's keys and handed to tf.estimator.Estimator sees its own INFER when the Estimator predicts.
"""
from ......estimator.mode_keys import ModeKeys as CoreModeKeys


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
