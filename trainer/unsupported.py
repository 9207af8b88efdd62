"""TF1 names ringflow does not have, with what to do instead: `tf.lite` says so rather than a bare AttributeError.

One exception, NotInRingflow, and one way for a module to raise it: `__getattr__ = missing_names(__name__, ...)`.
"""

MISSING = {
    "keras": "tf.keras here is TF 1.15's but for the names README's tf.keras section lists as missing: build "
             "those parts with tf.layers and tf.nn",
    "lite": "tf.lite",
    "py_function": "tf.py_function (its function takes eager tensors): use tf.py_func, whose function takes numpy "
                   "arrays",
    "RaggedTensor": "ragged tensors", "ragged": "ragged tensors",
    "distribute": "tf.distribute: use ringflow's DistributedOptimizer",
    "tpu": "TPUs", "xla": "XLA compilation",
    "function": "tf.function (graph mode is the only mode)", "GradientTape": "eager gradients (graph mode only)",
    "enable_resource_variables": "resource variables",
    "load_op_library": "custom C++ op libraries: ringflow's ops are Python; register one with "
                       "trainer.framework.registry.register",
    "load_library": "custom C++ kernel libraries: ringflow's ops are Python; register one with "
                    "trainer.framework.registry.register",
    "load_file_system_library": "C++ file system plugins: tf.gfile reads local paths",
    "sysconfig": "tf.sysconfig: the compile and link flags for C++ ops built against TensorFlow's library; ringflow's "
                 "ops are Python: register one with trainer.framework.registry.register",
}


class NotInRingflow(NotImplementedError, AttributeError):
    """A TF1 (or Horovod) name ringflow does not provide: NotImplementedError, as TF1 says of what it lacks, and an
    AttributeError, so that hasattr() answers False, getattr(module, name, default) falls back quietly and
    `from module import name` fails as for any missing name."""


def tf_name(module):
    """How TF1 programs spell `module`: trainer.contrib.rnn is tf.contrib.rnn, trainer.horovod is hvd."""
    for ours, theirs in (("trainer.horovod", "hvd"), ("trainer", "tf")):
        if module == ours or module.startswith(ours + "."):
            return theirs + module[len(ours):]
    return module


def missing_names(module, have="", reasons=None):
    """The module-level __getattr__ of `module` (its __name__): any name it lacks raises NotInRingflow saying what
    is missing, why and what to use instead (`reasons`, by name), and what the module has instead (`have`)."""
    reasons = dict(reasons or {})
    shown = tf_name(module)

    def __getattr__(name):  # noqa: N807  (the module hook's name)
        why = reasons.get(name, f"module {module!r} has no attribute {name!r}")
        text = f"{shown}.{name} is not available in ringflow ({why})"
        raise NotInRingflow(f"{text}; {have}" if have else text)

    return __getattr__
