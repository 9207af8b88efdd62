"""ResourceMgr: the state a session's kernels keep between runs, by (container, name), as TF1's ResourceMgr.

A kernel reaches it as `session.resources` and asks `lookup_or_create(container, name, create)` (TF1's
ResourceMgr::LookupOrCreate): the container says which kind of state it is ("rng", "Print", "iterator", ...), the
name which op or handle owns it. The session clears it on close, so nothing of a closed session lingers, and two
sessions on one graph never share it. A resource with a `cancel()` method is told when it is dropped: TF1 cancels a
closed session's pending ops, so a thread waiting on a queue of it ends (CancelledError) instead of hanging.
"""
import threading


class ResourceMgr:
    """A session's op state by (container, name): random streams, iterators, queues, print counts."""

    def __init__(self):
        self._containers = {}
        # kernels may run in several threads at once (TF1 allows concurrent runs), and a create may itself ask
        # for another resource (a shuffling batch op asks for its op's random stream): reentrant
        self._lock = threading.RLock()

    def lookup_or_create(self, container, name, create):
        """The resource `name` of `container`, made by `create()` and kept if there is none yet."""
        with self._lock:
            resources = self._containers.setdefault(container, {})
            if name not in resources:
                resources[name] = create()
            return resources[name]

    def lookup(self, container, name, default=None):
        """The resource `name` of `container`, or `default` if none was created."""
        with self._lock:
            return self._containers.get(container, {}).get(name, default)

    def items(self, container):
        """[(name, resource)] of one container, in the order they were created."""
        with self._lock:
            return list(self._containers.get(container, {}).items())

    def cleanup(self, container):
        """Drop every resource of one container (TF1's ResourceMgr::Cleanup)."""
        with self._lock:
            self._containers.pop(container, None)

    def clear(self):
        """Drop every resource (TF1's ResourceMgr::Clear, when its session goes away)."""
        with self._lock:
            dropped = [r for resources in self._containers.values() for r in resources.values()]
            self._containers.clear()
        for resource in dropped:
            cancel = getattr(resource, "cancel", None)
            if callable(cancel):
                cancel()
