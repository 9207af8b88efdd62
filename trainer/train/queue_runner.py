"""tf.train.start_queue_runners: start the threads of the graph's QueueRunners.

ringflow has no queue ops: input comes from feed_dict (or tg.data), so the QUEUE_RUNNERS collection is
normally empty and this returns []. Objects a program adds there with TF1's create_threads() are started.
"""
from ..client.session import Session
from ..framework.stacks import get_default_session


def start_queue_runners(sess=None, coord=None, daemon=True, start=True, collection="queue_runners"):
    """Start the threads of every QueueRunner in `collection` of sess's graph; returns the list of threads."""
    if sess is None:
        sess = get_default_session()
        if sess is None:
            raise ValueError("Cannot start queue runners: No default session is registered. Use "
                             "`with sess.as_default()` or pass an explicit session to "
                             "tg.train.start_queue_runners(sess=sess)")
    if not isinstance(sess, Session) and type(sess).__name__ in ("MonitoredSession", "SingularMonitoredSession"):
        return []  # a monitored session starts its queue runners itself (TF1 tells them apart by name too)
    threads = []
    with sess.graph.as_default():
        for runner in sess.graph.get_collection(collection):
            threads.extend(runner.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads
