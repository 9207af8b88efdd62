"""TensorBoard scalar summaries through tensorboardX, imported only when a --logdir is given."""


class ScalarWriter:
    """Writes named scalars per global step to TensorBoard event files in logdir."""

    def __init__(self, logdir):
        try:
            from tensorboardX import SummaryWriter
        except ImportError as exc:
            raise RuntimeError(
                f"--logdir {logdir!r} needs the tensorboardX package, which is not installed: "
                "pip install 'ringflow[tensorboard]' (or drop --logdir)") from exc
        self._writer = SummaryWriter(logdir=logdir)

    def scalars(self, step, values, prefix="train/"):
        for name, value in values.items():
            self._writer.add_scalar(prefix + name, float(value), int(step))

    def close(self):
        self._writer.flush()
        self._writer.close()
