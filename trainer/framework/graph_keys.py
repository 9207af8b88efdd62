"""tf.GraphKeys: the standard collection names TF1 programs and tools agree on."""


class GraphKeys:
    """Names of the graph collections (TF1's strings, so collections line up with TF1's)."""

    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    REGULARIZATION_LOSSES = "regularization_losses"
    GLOBAL_STEP = "global_step"
    SAVERS = "savers"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    TRAIN_OP = "train_op"
    QUEUE_RUNNERS = "queue_runners"
    ACTIVATIONS = "activations"
    WEIGHTS = "weights"
    BIASES = "biases"
    METRIC_VARIABLES = "metric_variables"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    VARIABLES = GLOBAL_VARIABLES
