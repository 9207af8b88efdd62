"""tf.estimator.ModeKeys: the three modes a model_fn is called in."""


class ModeKeys:
    """What an Estimator asks of model_fn: TRAIN (loss and train_op), EVAL (loss, metrics), PREDICT."""

    TRAIN = "train"
    EVAL = "eval"
    PREDICT = "infer"
