"""trainer.compat.v1 (tf.compat.v1): every name of the trainer namespace, looked up when used.

Names resolve through trainer at access time, so whatever later joins trainer appears here too. ringflow runs
graphs only, so the eager switches are no-ops in the graph direction and NotImplementedError in the other.
"""
import sys

from ..unsupported import MISSING, missing_names

_PASSED_DUNDERS = ("__version__",)


def executing_eagerly():
    """False: ringflow always builds graphs and runs them in a Session."""
    return False


def executing_eagerly_outside_functions():
    """False: outside functions too, ringflow builds graphs."""
    return False


def resource_variables_enabled():
    """False: ringflow's variables are TF1's reference variables (VariableV2), as TF 1.15's default."""
    return False


def disable_resource_variables():
    """Nothing to do: resource variables are never enabled here."""


def control_flow_v2_enabled():
    """False: tg.cond and tg.while_loop build TF1's graph control flow, not TF 2's functional ops."""
    return False


def disable_control_flow_v2():
    """Nothing to do: TF 2's functional control flow is never on here."""


def disable_v2_tensorshape():
    """Nothing to do: shapes behave as TF1's (an unknown dimension is Dimension(None)) and stay so."""


def disable_tensor_equality():
    """Nothing to do: Tensors compare by identity and are hashable, as TF1's."""


def disable_eager_execution():
    """Nothing to do: graph mode is the only mode."""


def disable_v2_behavior():
    """Nothing to do: ringflow has TF1 (graph, Session) behaviour only."""


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    raise NotImplementedError("ringflow executes graphs only (TF1 graph mode): eager execution is not available; "
                              "build the graph and run it with tg.Session")


def enable_v2_behavior():
    raise NotImplementedError("ringflow implements TF1 graph-mode behaviour only; TF2 behaviour (eager, "
                              "tf.function) is not available")


def _trainer():
    return sys.modules[__name__.split(".")[0]]  # the tg namespace, always loaded before its compat.v1


_lacks = missing_names(__name__, reasons=MISSING, have="tf.compat.v1 holds every name of ringflow's TF1 namespace")


def __getattr__(name):
    if name == "__all__":
        return sorted(n for n in __dir__() if not n.startswith("_"))
    if name.startswith("__") and name not in _PASSED_DUNDERS:
        _lacks(name)  # never borrow trainer's __path__, __spec__, ...: v1 is a plain module
    try:
        return getattr(_trainer(), name)
    except AttributeError:
        _lacks(name)


def __dir__():
    return sorted(set(globals()) | {n for n in dir(_trainer()) if not n.startswith("_")})

