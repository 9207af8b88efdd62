"""The tensorflow.python.* modules TF's own tests and TF1 programs import (ops.math_ops, framework.constant_op,
ops.gradient_checker, ...), as views of the tf.* namespaces TF1 exports their names through.

TF's math_ops.argmax is tf.argmax and its nn_ops.relu is tf.nn.relu: a view module looks each name up, when it is
used, in the namespaces it names, in order, so it hands out ringflow's very objects, including names that join
those namespaces later. The tg namespace stands above this floor, so a view reads it from sys.modules (loaded
before any trainer.python module, as their parent package), as tf.compat.v1 does, and never imports it.
"""
import sys

from ..unsupported import missing_names


def namespace_view(module, *namespaces):
    """(__getattr__, __dir__) for module `module` (its __name__): a name resolves to the first of tg.<namespace>.name
    that exists ("" is tg itself, "nn" tg.nn, "nn.rnn_cell" tg.nn.rnn_cell); a name none has raises NotInRingflow."""
    shown = ", ".join(f"tf.{path}" if path else "tf" for path in namespaces)
    lacks = missing_names(module, have=f"ringflow looks its names up in {shown}" if namespaces else "")

    def owners():
        for path in namespaces:
            owner = sys.modules["trainer"]
            for part in path.split(".") if path else ():
                owner = getattr(owner, part)
            yield owner

    def __getattr__(name):  # noqa: N807  (the module hook's name)
        if not name.startswith("__"):  # the import system's own questions (__path__, ...) are not TF names
            for owner in owners():
                try:
                    return getattr(owner, name)
                except AttributeError:  # NotInRingflow too: the next namespace may have it
                    continue
        lacks(name)

    def __dir__():  # noqa: N807
        return sorted({name for owner in owners() for name in dir(owner) if not name.startswith("_")})

    return __getattr__, __dir__
