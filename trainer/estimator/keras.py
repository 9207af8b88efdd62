"""tf.keras.estimator.model_to_estimator on tf.estimator: the Keras model's architecture rebuilt in each of the
Estimator's graphs and called on the features, its compile() loss, metrics and optimizer, and its weights at
conversion time as the starting point (assigned once, when no checkpoint is restored).

The loss is the batch mean of the compiled loss (one output) plus the layers' regularization losses; the train op
is the Keras optimizer's update plus the global step's increment. The learning phase is fixed per mode (1 in
TRAIN), so Dropout acts as in fit; layer updates such as BatchNormalization's moving averages are not run.
"""
from ..keras import backend as K
from ..keras import losses as keras_losses
from ..keras import metrics as keras_metrics
from ..keras import models, optimizers
from ..keras.estimator import register_model_to_estimator
from ..metrics import mean
from ..ops.array_ops import cast
from ..ops.core_ops import constant, group
from ..ops.math_ops import add_n
from ..ops.reduction_ops import reduce_mean
from ..ops.shape_ops import expand_dims
from ..train.scaffold import Scaffold
from ..train.training_util import get_or_create_global_step
from .estimator import Estimator
from .mode_keys import ModeKeys
from .model_fn import EstimatorSpec


def model_to_estimator(keras_model=None, keras_model_path=None, custom_objects=None, model_dir=None, config=None,
                       checkpoint_format=None):
    """An Estimator that trains, evaluates and predicts with a compiled Keras model (see the module)."""
    if (keras_model is None) == (keras_model_path is None):
        raise ValueError("Either `keras_model` or `keras_model_path` needs to be provided, but not both")
    if keras_model_path is not None:
        keras_model = models.load_model(keras_model_path, custom_objects=custom_objects)
    if getattr(keras_model, "optimizer", None) is None:
        raise ValueError("The given keras model has not been compiled yet. Please compile the model with "
                         "`model.compile()` before calling `model_to_estimator()`.")
    if len(keras_model.outputs) != 1 or isinstance(keras_model.loss, (list, dict)):
        raise ValueError(f"model_to_estimator in ringflow takes a model with one output and one loss; "
                         f"{keras_model.name!r} has {len(keras_model.outputs)} outputs")
    if isinstance(keras_model.optimizer, optimizers.TFOptimizer):
        raise ValueError("model_to_estimator needs a model compiled with a Keras optimizer (its config rebuilds it "
                         "in the Estimator's graph); a tf.train optimizer belongs in a model_fn")
    architecture = keras_model.to_json()
    spec = {"optimizer": optimizers.serialize(keras_model.optimizer), "loss": keras_model.loss,
            "metrics": list(keras_model.metrics or []), "weights": keras_model.get_weights(),
            "input_names": list(keras_model.input_names), "output_name": keras_model.output_names[0],
            "custom_objects": custom_objects}
    return Estimator(lambda features, labels, mode: _model_fn(architecture, spec, features, labels, mode),
                     model_dir=model_dir, config=config)


def _model_fn(architecture, spec, features, labels, mode):
    K.set_learning_phase(1 if mode == ModeKeys.TRAIN else 0)
    model = models.model_from_json(architecture, spec["custom_objects"])
    if isinstance(features, dict):
        missing = [n for n in spec["input_names"] if n not in features]
        if missing:
            raise ValueError(f"The features have no {missing!r}: the model's inputs are {spec['input_names']!r}; "
                             f"the input_fn gave {sorted(features)!r}")
        features = [features[n] for n in spec["input_names"]]
        features = features[0] if len(features) == 1 else features
    outputs = model(features)
    assign = group(*[w.assign(constant(v)) for w, v in zip(model.weights, spec["weights"])])
    scaffold = Scaffold(init_fn=lambda scaffold, session: session.run(assign))
    if mode == ModeKeys.PREDICT:
        return EstimatorSpec(mode, predictions={spec["output_name"]: outputs}, scaffold=scaffold)
    loss_fn = keras_losses.get(spec["loss"])
    if K.ndim(labels) == K.ndim(outputs) - 1:
        labels = expand_dims(labels, -1)
    labels = cast(labels, outputs.dtype) if loss_fn is not keras_losses.sparse_categorical_crossentropy else labels
    loss = reduce_mean(loss_fn(labels, outputs))
    if model.losses:
        loss = add_n([loss] + list(model.losses))
    metrics = {}
    for metric in spec["metrics"]:
        fn, name = keras_metrics.resolve(metric, loss_fn, K.int_shape(outputs))
        if isinstance(fn, keras_metrics.Metric):  # its own state, in this graph: a clone, as TF 1.15 makes
            clone = type(fn).from_config(fn.get_config())
            metrics[name] = (clone.result(), clone.update_state(labels, outputs))
        else:
            metrics[name] = mean(fn(labels, outputs))
    train_op = None
    if mode == ModeKeys.TRAIN:
        optimizer = optimizers.deserialize(spec["optimizer"])
        train_op = group(*optimizer.get_updates(loss, model.trainable_weights),
                         get_or_create_global_step().assign_add(1))
    return EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops=metrics, scaffold=scaffold)


register_model_to_estimator(model_to_estimator)
