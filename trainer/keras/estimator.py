"""tf.keras.estimator.model_to_estimator: a compiled Keras model as a tf.estimator.Estimator.

tf.estimator stands above tf.keras (its Estimator takes Keras models), so the implementation lives in
trainer/estimator/keras.py and registers itself here when trainer.estimator is imported (`import trainer` does).
"""
_IMPLEMENTATION = []  # the registered model_to_estimator, once trainer.estimator is imported


def register_model_to_estimator(implementation):
    """Install the function model_to_estimator calls (trainer.estimator does, on import)."""
    _IMPLEMENTATION[:] = [implementation]


def model_to_estimator(keras_model=None, keras_model_path=None, custom_objects=None, model_dir=None, config=None,
                       checkpoint_format=None):
    """An Estimator training, evaluating and predicting with `keras_model` (or the model saved at
    keras_model_path): its architecture, compile() settings and current weights as the starting point."""
    if not _IMPLEMENTATION:
        raise RuntimeError("tf.keras.estimator.model_to_estimator needs tf.estimator: `import trainer` (or "
                           "trainer.estimator) first")
    return _IMPLEMENTATION[0](keras_model, keras_model_path, custom_objects, model_dir, config, checkpoint_format)
