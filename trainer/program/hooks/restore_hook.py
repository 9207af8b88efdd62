"""Start every rank from the chief's state: its variables, its data position, each rank's random streams."""
import warnings

from ...parallel.distributed import broadcast_variables
from ...train.session_run_hook import SessionRunHook
from ...train.training_util import get_global_step


class RestoreBroadcastHook(SessionRunHook):
    """After the sessions are made (the chief's restored from `checkpoint` or initialized), every rank takes
    rank 0's variables and data position, and continues its own random-op streams (dropout masks) from the
    checkpoint. `restored_step` is then the step of the checkpoint restored, or None, on every rank.

    A collective: every rank must run it, whether or not it was given a checkpoint (only the chief is).
    """

    def __init__(self, communicator, pipeline, checkpoint=None):
        self.communicator, self.pipeline, self.checkpoint = communicator, pipeline, checkpoint
        self.restored_step = None

    def begin(self):
        self._global_step = get_global_step()

    def after_create_session(self, session, coord):
        restored = None
        if self.communicator.rank == 0 and self.checkpoint is not None:
            meta = self.checkpoint.meta or {}
            restored = {"step": int(session.run(self._global_step)), "data": meta.get("data"),
                        "random": meta.get("random", []), "path": self.checkpoint.path}
        broadcast_variables(session, 0, self.communicator)
        restored = self.communicator.broadcast_json(restored, what="the restored checkpoint's facts")
        if restored is None:
            return
        self.restored_step = restored["step"]
        if restored["data"] is not None:
            self.pipeline.restore(restored["data"])
        elif self.communicator.rank == 0:  # `ringflow train` refuses such a file before (program.check_record)
            warnings.warn(f"checkpoint {restored['path']!r} has no data position (no 'data' in the meta it was "
                          "saved with): the data stream starts again from its beginning")
        self._continue_random_streams(session, restored["random"])

    def _continue_random_streams(self, session, saved):
        if not saved:
            return
        if len(saved) == self.communicator.size:
            session.set_random_state(saved[self.communicator.rank])
        elif all(state == saved[0] for state in saved):  # every rank drew alike (initializers): any count continues
            session.set_random_state(saved[0])
        elif self.communicator.rank == 0:  # each rank's stream followed its own shard: no count but N continues it
            warnings.warn(f"the checkpoint's random streams come from {len(saved)} rank(s) that drew differently "
                          f"(dropout on their shards), this run has {self.communicator.size}: random ops restart "
                          "from their seeds")
