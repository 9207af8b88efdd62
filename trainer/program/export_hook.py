"""--save-final: every variable of the trained model in one .npz, by graph name ("dense/kernel:0")."""
import numpy as np

from ..checkpoint import write_npz
from ..train import SessionRunHook
from ..variables import global_variables


class ExportHook(SessionRunHook):
    """At the end, writes every global variable (weights, optimizer slots, global step) to `path`,
    atomically. Give it to the chief only."""

    def __init__(self, path):
        self.path = path

    def begin(self):
        self._variables = global_variables()

    def end(self, session):
        values = session.run(self._variables)
        write_npz(self.path, {v.name: np.asarray(value) for v, value in zip(self._variables, values)})
