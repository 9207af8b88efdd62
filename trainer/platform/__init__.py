"""The platform under everything: tf.app, tf.flags, tf.gfile, tf.logging, the TF1 error classes, atomic files,
BLAS thread limits and the early-abort hook. Imports only the standard library (and numpy where a file needs it)."""
