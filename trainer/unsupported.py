"""TF1 names ringflow does not have, with what to do instead: `tf.keras` says so rather than a bare AttributeError."""

_PORTING = "see README, 'Porting a TF1 program'"
MISSING = {
    "keras": "tf.keras: build the model with tf.layers or plain variables",
    "lite": "tf.lite", "saved_model": "tf.saved_model: save variables with tf.train.Saver",
    "SparseTensor": "sparse tensors", "IndexedSlices": "IndexedSlices: gradients are dense tensors here",
    "sparse": "sparse tensors", "py_func": "tf.py_func: the graph runs numpy kernels; register an op instead",
    "numpy_function": "tf.numpy_function: register an op instead", "py_function": "tf.py_function",
    "FIFOQueue": f"queues: feed numpy arrays through placeholders ({_PORTING})", "RandomShuffleQueue": "queues",
    "TFRecordReader": "TFRecord input readers: load the data with numpy", "WholeFileReader": "input readers",
    "io.TFRecordWriter": "TFRecord writing", "RaggedTensor": "ragged tensors", "ragged": "ragged tensors",
    "distribute": "tf.distribute: use ringflow's DistributedOptimizer",
    "tpu": "TPUs", "xla": "XLA compilation", "autograph": "AutoGraph (graph mode is the only mode)",
    "function": "tf.function (graph mode is the only mode)", "GradientTape": "eager gradients (graph mode only)",
    "enable_resource_variables": "resource variables",
}


class NotInRingflow(AttributeError):
    """A TF1 name that ringflow does not provide (an AttributeError, so hasattr() still answers False)."""


def missing(name):
    reason = MISSING.get(name)
    if reason is None:
        return AttributeError(f"module 'trainer' has no attribute {name!r}")
    return NotInRingflow(f"tf.{name} is not available in ringflow ({reason})")
