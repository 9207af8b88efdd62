"""The training loop's scalar logger (`--logdir`), on top of FileWriter: no tensorboardX needed."""
from .protos import Summary
from .writer import FileWriter


class ScalarWriter:
    """Writes named scalars per global step to TensorBoard event files in logdir."""

    def __init__(self, logdir):
        self._writer = FileWriter(logdir)

    def scalars(self, step, values, prefix="train/"):
        summary = Summary(value=[Summary.Value(tag=prefix + name, simple_value=float(value))
                                 for name, value in values.items()])
        self._writer.add_summary(summary, int(step))

    def close(self):
        self._writer.close()
