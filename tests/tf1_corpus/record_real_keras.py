"""Run a corpus Keras program under real TensorFlow and tf-keras (tf.compat.v1, graph mode) and print its
output, for recording the outcomes the corpus tests compare ringflow's with. Run in a venv that has them:
    cd tests/tf1_corpus && /work/tfvenv/bin/python record_real_keras.py keras_reviews.py [lstm]
`import tensorflow as tf` inside the program is tf.compat.v1 with tf.keras being tf-keras."""
import runpy
import sys
import types

import tensorflow
import tensorflow.compat.v1 as v1
import tf_keras

v1.disable_v2_behavior()
shim = types.ModuleType("tensorflow")
shim.__dict__.update({k: getattr(v1, k) for k in dir(v1) if not k.startswith("__")})
shim.keras, shim.__version__ = tf_keras, tensorflow.__version__
sys.modules["tensorflow"] = shim
sys.modules["tensorflow.keras"] = tf_keras
print("recorded with tensorflow", tensorflow.__version__, "tf-keras", tf_keras.__version__)
program, sys.argv = sys.argv[1], sys.argv[1:]
runpy.run_path(program, run_name="__main__")
