"""tf.train.start_queue_runners: start the threads of the graph's QueueRunners.

ringflow has no queue ops: input comes from feed_dict (or tg.data), so the QUEUE_RUNNERS collection is
normally empty and this returns []. Objects a program adds there with TF1's create_threads() are started.
"""


def start_queue_runners(sess=None, coord=None, daemon=True, start=True, collection="queue_runners"):
    """Start the threads of every QueueRunner in `collection` of sess's graph; returns the list of threads."""
    from ..session import get_default_session
    from .monitored_session import _MonitoredSession
    if sess is None:
        sess = get_default_session()
        if sess is None:
            raise ValueError("Cannot start queue runners: No default session is registered. Use "
                             "`with sess.as_default()` or pass an explicit session to "
                             "tg.train.start_queue_runners(sess=sess)")
    if isinstance(sess, _MonitoredSession):
        return []  # a monitored session starts its queue runners itself
    threads = []
    with sess.graph.as_default():
        for runner in sess.graph.get_collection(collection):
            threads.extend(runner.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads
