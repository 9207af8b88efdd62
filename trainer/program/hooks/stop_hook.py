"""Stop at --steps: TF1's StopAtStepHook, which also runs no step when a resumed run is already there."""
from ... import train


class StopAtStepHook(train.StopAtStepHook):
    """tg.train.StopAtStepHook(last_step=...) that stops before the first run when the global step already
    reached last_step (resuming a finished run, or --steps 0): TF1's hook would run one step past it."""

    def __init__(self, last_step):
        super().__init__(last_step=last_step)
        self.last_step = last_step

    def begin(self):
        super().begin()
        self._step_tensor = train.get_global_step()

    def after_create_session(self, session, coord):
        super().after_create_session(session, coord)
        if int(session.run(self._step_tensor)) >= self.last_step:
            coord.request_stop()
