"""The default-graph and default-session stacks, one of each per thread (TF1 keeps both in framework/ops.py).

Here, below the client, so that Tensor.eval and Operation.run find their session without importing it: a
Session pushes itself on entering `with sess:` / `as_default()`, and eval/run only ask the top of the stack.
"""
import contextlib
import threading
import time

_local = threading.local()


def graphs():
    """This thread's stack of graphs made default with Graph.as_default(), innermost last."""
    if not hasattr(_local, "graphs"):
        _local.graphs = []
    return _local.graphs


def sessions():
    """This thread's stack of default sessions, innermost last."""
    if not hasattr(_local, "sessions"):
        _local.sessions = []
    return _local.sessions


@contextlib.contextmanager
def pushed(stack, item):
    """`item` on top of `stack` inside the block; on exit its own entry goes, whatever the nesting order
    (an InteractiveSession closes out of order)."""
    stack.append(item)
    try:
        yield item
    finally:
        del stack[max(i for i, x in enumerate(stack) if x is item)]


def get_default_session():
    """The innermost default session of this thread, or None."""
    stack = sessions()
    return stack[-1] if stack else None


def resolve_session(session, element):
    """`session`, else the default session; it must hold `element`'s graph."""
    session = session or get_default_session()
    if session is None:
        raise ValueError(f"Cannot evaluate {element.name!r}: no default session is registered. Use "
                         "`with tg.Session() as sess:` or pass session=sess")
    if element.graph is not session.graph:
        raise ValueError(f"Cannot evaluate {element.name!r}: its graph is not the session's graph")
    return session


def run_deadline():
    """When this thread's Session.run stops waiting (a time.monotonic() value), or None: what a blocking kernel (a
    queue's dequeue) waits until. Here, beside the session stack, so that ops never import the client."""
    return getattr(_local, "deadline", None)


@contextlib.contextmanager
def deadline_in(timeout_ms):
    """Inside the block, this thread's runs give up waiting after `timeout_ms` (None or <= 0: never)."""
    before = run_deadline()
    _local.deadline = time.monotonic() + timeout_ms / 1000.0 if timeout_ms and timeout_ms > 0 else None
    try:
        yield
    finally:
        _local.deadline = before
