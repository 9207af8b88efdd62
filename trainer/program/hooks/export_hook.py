"""--save-final: every variable of the trained model in one .npz, by graph name ("dense/kernel:0")."""
import numpy as np

from ...train.checkpoint import write_npz
from ...parallel.nonfinite import NonFiniteError, first_nonfinite
from ...train.session_run_hook import SessionRunHook
from ...ops.variables import global_variables


class ExportHook(SessionRunHook):
    """At the end, writes every global variable (weights, optimizer slots, global step) to `path`,
    atomically; NaN or inf in any of them raises NonFiniteError and nothing is written. Give it to the chief
    only."""

    def __init__(self, path):
        self.path = path

    def begin(self):
        self._variables = global_variables()

    def end(self, session):
        values = session.run(self._variables)
        bad = first_nonfinite(zip([v.name for v in self._variables], values))
        if bad is not None:
            name, what, count = bad
            raise NonFiniteError(f"not writing --save-final {self.path!r}: variable {name!r} holds {what} "
                                 f"({count} variable(s) not finite): the weights diverged; train again with a "
                                 "lower --lr")
        write_npz(self.path, {v.name: np.asarray(value) for v, value in zip(self._variables, values)})
