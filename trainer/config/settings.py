"""The runtime settings tf.config keeps for the process: thread pools, the graph optimizer's and XLA's options, soft
placement, the eager device policy and execution mode, whether tf.functions run eagerly, and tf.debugging's
device-placement logging (TF's eager context holds it; a graph Session logs placements by its ConfigProto's).

ringflow's sessions read none of them (numpy's BLAS sizes its own pool, from OMP_NUM_THREADS; there is no Grappler,
XLA, eager mode or tf.function), so each is kept and returned exactly as TF 2.15's tf.compat.v1 keeps and returns
it, which is what programs that set one and read it back rely on. TF refuses most of them once its runtime has
started; ringflow's has no such moment, so they may be set at any time.
"""
import operator

_SETTINGS = {"intra_op_parallelism_threads": 0, "inter_op_parallelism_threads": 0, "jit": "",
             "soft_device_placement": False, "device_policy": "silent", "synchronous_execution": True,
             "functions_run_eagerly": False, "log_device_placement": False}
# Grappler's switches that TF reports even when unset, in the order it reports them
_OPTIMIZER_OPTIONS = {"disable_model_pruning": False, "disable_meta_optimizer": False}
_DEVICE_POLICIES = ("silent", "silent_for_int32", "warn", "explicit")


def _count(num_threads):
    try:
        return operator.index(num_threads)
    except TypeError:
        raise TypeError(f"The number of threads must be an integer, got {num_threads!r}") from None


def get_intra_op_parallelism_threads():
    """The threads one op may use, as set (0: the system picks)."""
    return _SETTINGS["intra_op_parallelism_threads"]


def set_intra_op_parallelism_threads(num_threads):
    """Record the threads one op may use (an integer: TF fails on any other when its runtime starts, ringflow here)."""
    _SETTINGS["intra_op_parallelism_threads"] = _count(num_threads)


def get_inter_op_parallelism_threads():
    """The ops that may run at once, as set (0: the system picks)."""
    return _SETTINGS["inter_op_parallelism_threads"]


def set_inter_op_parallelism_threads(num_threads):
    """Record how many ops may run at once."""
    _SETTINGS["inter_op_parallelism_threads"] = _count(num_threads)


def get_jit():
    """'autoclustering' where XLA's auto-clustering was asked for, '' otherwise (TF's answers)."""
    return _SETTINGS["jit"]


def set_jit(enabled):
    """Ask for XLA's auto-clustering (True or "autoclustering") or not; any other value turns it off, as in TF."""
    _SETTINGS["jit"] = "autoclustering" if enabled in (True, "autoclustering") else ""


def get_experimental_options():
    """Grappler's switches as set, with the two TF always reports."""
    return dict(_OPTIMIZER_OPTIONS)


def set_experimental_options(options):
    """Record Grappler's switches ({"constant_folding": False, ...}) over those set before."""
    _OPTIMIZER_OPTIONS.update(options)


def get_soft_device_placement():
    """Whether an op placed on a device that cannot run it may move to one that can."""
    return _SETTINGS["soft_device_placement"]


def set_soft_device_placement(enabled):
    """Record soft placement on or off."""
    _SETTINGS["soft_device_placement"] = bool(enabled)


def get_device_policy():
    """The eager device policy: 'silent', 'silent_for_int32', 'warn' or 'explicit'."""
    return _SETTINGS["device_policy"]


def set_device_policy(device_policy):
    """Record the eager device policy (None restores 'silent'); ValueError for any other name, as TF."""
    if device_policy is not None and device_policy not in _DEVICE_POLICIES:
        raise ValueError(f"Invalid argument `device_policy`: {device_policy!r}. Use one of {_DEVICE_POLICIES} "
                         "or None")
    _SETTINGS["device_policy"] = device_policy or "silent"


def get_synchronous_execution():
    """Whether eager ops run synchronously (True unless set off)."""
    return _SETTINGS["synchronous_execution"]


def set_synchronous_execution(enable):
    """Record synchronous eager execution on or off (None restores the default, on)."""
    _SETTINGS["synchronous_execution"] = True if enable is None else bool(enable)


def functions_run_eagerly():
    """Whether tf.functions are to run eagerly, as set."""
    return _SETTINGS["functions_run_eagerly"]


def run_functions_eagerly(run_eagerly):
    """Record whether tf.functions are to run eagerly."""
    _SETTINGS["functions_run_eagerly"] = bool(run_eagerly)


def get_log_device_placement():
    """Whether eager op placements are logged (tf.debugging)."""
    return _SETTINGS["log_device_placement"]


def set_log_device_placement(enabled):
    """Record eager placement logging on or off (tf.debugging); graph sessions follow their ConfigProto's."""
    _SETTINGS["log_device_placement"] = bool(enabled)
