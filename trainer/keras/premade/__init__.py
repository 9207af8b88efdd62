"""Keras' premade models (TF 1.15's tensorflow.python.keras.premade): LinearModel, tf.keras.experimental's."""
