"""tf.train.SecondOrStepTimer: when a periodic hook should act, every N seconds or every N steps."""
import time


class SecondOrStepTimer:
    """Triggers at the first step asked, then once every_secs have passed or every_steps steps were made."""

    def __init__(self, every_secs=None, every_steps=None):
        if (every_secs is None) == (every_steps is None):
            raise ValueError("Exactly one of every_steps and every_secs should be provided; got "
                             f"every_secs={every_secs!r}, every_steps={every_steps!r}")
        self._every_secs, self._every_steps = every_secs, every_steps
        self.reset()

    def reset(self):
        self._last_triggered_step = None
        self._last_triggered_time = None

    def should_trigger_for_step(self, step):
        """True if `step` is due: never triggered yet, or enough time/steps since the last trigger."""
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None and time.time() >= self._last_triggered_time + self._every_secs:
            return True
        return self._every_steps is not None and step >= self._last_triggered_step + self._every_steps

    def update_last_triggered_step(self, step):
        """Mark `step` as triggered now; returns (seconds, steps) since the previous trigger, or (None, None)."""
        now = time.time()
        if self._last_triggered_time is None:
            elapsed = (None, None)
        else:
            elapsed = (now - self._last_triggered_time, step - self._last_triggered_step)
        self._last_triggered_time, self._last_triggered_step = now, step
        return elapsed

    def last_triggered_step(self):
        return self._last_triggered_step


class NeverTriggerTimer(SecondOrStepTimer):
    """A timer for hooks that act only at the end (LoggingTensorHook(at_end=True) alone)."""

    def __init__(self):
        self.reset()

    def should_trigger_for_step(self, step):
        return False
