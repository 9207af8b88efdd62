"""tf.autograph (tensorflow.python.autograph): ringflow runs graph mode only and never converts Python control flow
into graph ops, so AutoGraph's directives and decorators do here what TF's do outside a converted function: a
function marked do_not_convert is the function itself, set_loop_options changes nothing, trace prints its
arguments. to_graph and to_code, which would convert, say they are missing: write the loop with tf.while_loop and
the branch with tf.cond.
"""
from . import experimental
from ...unsupported import missing_names

_VERBOSITY = {"level": 0, "alsologtostdout": False}


def set_verbosity(level, alsologtostdout=False):
    """Record AutoGraph's log verbosity (ringflow converts nothing, so it logs nothing at any level)."""
    _VERBOSITY.update(level=int(level), alsologtostdout=bool(alsologtostdout))


def trace(*args):
    """Print the arguments, as AutoGraph's trace does when the code runs unconverted."""
    print(*args)


__all__ = ["experimental", "set_verbosity", "trace"]

__getattr__ = missing_names(__name__, have="tf.autograph has experimental.do_not_convert, set_loop_options, "
                                           "set_verbosity and trace",
                            reasons={name: "AutoGraph's conversion of Python control flow: ringflow builds graphs "
                                           "only from ops; write loops with tf.while_loop and branches with tf.cond"
                                     for name in ("to_graph", "to_code")})
