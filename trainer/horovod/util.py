"""horovod.tensorflow.util: the helpers Horovod's own modules and test suites import from it, for ringflow's
graph-only TF1 (there is no eager mode, so nothing here ever runs eagerly)."""

_has_eager = False  # Horovod's name; TF1 programs and Horovod's tests branch on it to enable eager execution


def _executing_eagerly():
    """False: ringflow always builds graphs (Horovod asks before choosing eager code paths)."""
    return False


def _make_subgraph(f):
    """`f` itself: in graph mode Horovod's subgraphs are the ops `f` builds when called."""
    return f


def _cache(f):
    """`f` memoized on its (hashable) arguments, as Horovod caches the ops it builds per argument tuple."""
    cache = {}

    def cached(*args):
        if args not in cache:
            cache[args] = f(*args)
        return cache[args]

    return cached
