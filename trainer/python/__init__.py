"""TF1 modules that TF's own tests and TF1 programs import by their tensorflow.python path: most are views of the
tf.* namespaces TF1 exports their names through (views.py: tensorflow.python.ops.math_ops.argmax is tf.argmax);
client.timeline, ops.resources, framework.ops and framework.test_util are modules of their own."""
