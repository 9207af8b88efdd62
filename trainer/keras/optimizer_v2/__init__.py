"""tf.keras' optimizer_v2 package by TF 1.15's internal path (tensorflow.python.keras.optimizer_v2): the module
optimizer_v2, whose OptimizerV2 is tf.keras.optimizers.Optimizer, as in TF 1.15."""
