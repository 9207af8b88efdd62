"""tensorflow.python.eager.context, as TF's tests use it: graph mode is ringflow's only mode, so graph_mode() changes
nothing, executing_eagerly() is False and eager_mode() says eager execution is not available."""
import contextlib


def executing_eagerly():
    """False: ringflow builds graphs and runs them in sessions."""
    return False


def graph_mode():
    """A context in graph mode: every context is."""
    return contextlib.nullcontext()


def eager_mode():
    raise NotImplementedError("ringflow executes graphs only (TF1 graph mode): eager execution is not available; "
                              "build the graph and run it in a session")
