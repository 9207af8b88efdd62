"""The session of one rank: on its --device, restored from a checkpoint (the chief) or initialized."""
from ..framework.graph import get_default_graph
from ..client.session import Session
from ..train.monitored_session import SessionCreator


class RankSessionCreator(SessionCreator):
    """TF1's ChiefSessionCreator for one MPI rank, with the session on `device` ("cpu" or "gpu").

    `checkpoint` (a resume.Checkpoint, the chief's only) is restored through its Saver; without one the
    scaffold's init_op runs. The other ranks take the chief's values from RestoreBroadcastHook afterwards,
    so they never read a checkpoint file and need not share the chief's file system.
    """

    def __init__(self, scaffold, device="cpu", checkpoint=None):
        self.scaffold, self.device, self.checkpoint = scaffold, device, checkpoint

    def create_session(self):
        self.scaffold.finalize()
        session = Session(graph=get_default_graph(), device=self.device)
        if self.checkpoint is None:
            session.run(self.scaffold.init_op, feed_dict=self.scaffold.init_feed_dict)
        else:
            self.checkpoint.saver.restore(session, self.checkpoint.path)
        if self.scaffold.local_init_op is not None:
            session.run(self.scaffold.local_init_op, feed_dict=self.scaffold.local_init_feed_dict)
        return session
