"""tf.train.Scaffold: the ops a monitored session needs around the model (init, ready checks, saver, summaries)."""
from .logger import logger


def _get_or_default(arg_name, collection_key, default_constructor):
    """The one item of the graph collection, else a new default added to it (None stays out)."""
    from ..graph import get_default_graph
    graph = get_default_graph()
    elements = graph.get_collection(collection_key)
    if elements:
        if len(elements) > 1:
            raise RuntimeError(f"More than one item in the collection {collection_key!r}. Please indicate which one "
                               f"to use by passing it to the tg.train.Scaffold constructor as: "
                               f"tg.train.Scaffold({arg_name}=item to use)")
        return elements[0]
    op = default_constructor()
    if op is not None:
        graph.add_to_collection(collection_key, op)
    return op


def _default_init_op():
    from ..variables import global_variables_initializer
    return global_variables_initializer()


def _default_ready_op():
    from ..variables import report_uninitialized_variables
    return report_uninitialized_variables()


def _default_ready_for_local_init_op():
    from ..variables import global_variables, report_uninitialized_variables
    return report_uninitialized_variables(global_variables())


def _default_summary_op():
    from ..summary import merge_all
    return merge_all()


def _default_saver():
    """The graph's one Saver (SAVERS collection), else a new Saver of every global variable, added there."""
    from ..graph import get_default_graph
    from ..graph_keys import GraphKeys
    from .saver import Saver
    savers = get_default_graph().get_collection(GraphKeys.SAVERS)
    if savers:
        if len(savers) > 1:
            raise RuntimeError(f"More than one item in collection {GraphKeys.SAVERS!r}. Please indicate which one "
                               "to use by passing it to the constructor.")
        return savers[0]
    saver = Saver(sharded=True, allow_empty=True)
    get_default_graph().add_to_collection(GraphKeys.SAVERS, saver)
    return saver


class Scaffold:
    """Holds (or, at finalize(), builds) init_op, ready_op, local_init_op, summary_op and saver.

    `init_fn(scaffold, session)` runs after init_op when no checkpoint was restored. Each op left None
    comes from its graph collection (GraphKeys.INIT_OP, ...) or gets TF1's default; finalize() then
    freezes the graph.
    """

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None, ready_for_local_init_op=None,
                 local_init_op=None, summary_op=None, saver=None, copy_from_scaffold=None, local_init_feed_dict=None):
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError(f"copy_from_scaffold is not a Scaffold instance: {copy_from_scaffold!r}")
            base = copy_from_scaffold

            def coalesce(value, name):
                return value if value is not None else getattr(base, name)
            init_op, init_feed_dict = coalesce(init_op, "init_op"), coalesce(init_feed_dict, "init_feed_dict")
            init_fn = init_fn if init_fn is not None else base._user_init_fn
            ready_op = coalesce(ready_op, "ready_op")
            ready_for_local_init_op = coalesce(ready_for_local_init_op, "ready_for_local_init_op")
            local_init_op = coalesce(local_init_op, "local_init_op")
            local_init_feed_dict = coalesce(local_init_feed_dict, "local_init_feed_dict")
            summary_op, saver = coalesce(summary_op, "summary_op"), coalesce(saver, "saver")
        self._user_init_fn = init_fn
        # TF1 hands the scaffold to init_fn so it can reach the saver.
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._init_op, self._init_feed_dict = init_op, init_feed_dict
        self._ready_op, self._ready_for_local_init_op = ready_op, ready_for_local_init_op
        self._local_init_op, self._local_init_feed_dict = local_init_op, local_init_feed_dict
        self._summary_op, self._saver = summary_op, saver

    def finalize(self):
        """Create the missing ops and the saver, then finalize the graph; returns self."""
        from ..graph import get_default_graph
        from ..graph_keys import GraphKeys
        if self._init_op is None:
            self._init_op = _get_or_default("init_op", GraphKeys.INIT_OP, _default_init_op)
        if self._ready_op is None:
            self._ready_op = _get_or_default("ready_op", GraphKeys.READY_OP, _default_ready_op)
        if self._ready_for_local_init_op is None:
            self._ready_for_local_init_op = _get_or_default(
                "ready_for_local_init_op", GraphKeys.READY_FOR_LOCAL_INIT_OP, _default_ready_for_local_init_op)
        if self._local_init_op is None:
            self._local_init_op = _get_or_default("local_init_op", GraphKeys.LOCAL_INIT_OP,
                                                  Scaffold.default_local_init_op)
        if self._summary_op is None:
            self._summary_op = _get_or_default("summary_op", GraphKeys.SUMMARY_OP, _default_summary_op)
        if self._saver is None:
            self._saver = _default_saver()
        if hasattr(self._saver, "build"):
            self._saver.build()
        graph = get_default_graph()
        if hasattr(graph, "finalize"):
            graph.finalize()
            logger().info("Graph was finalized.")
        return self

    @staticmethod
    def default_local_init_op():
        """TF1's local init: initialize the local variables (there are no lookup tables here)."""
        from ..variables import local_variables_initializer
        return local_variables_initializer()

    @staticmethod
    def get_or_default(arg_name, collection_key, default_constructor):
        return _get_or_default(arg_name, collection_key, default_constructor)

    init_fn = property(lambda self: self._init_fn)
    init_op = property(lambda self: self._init_op)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    local_init_op = property(lambda self: self._local_init_op)
    local_init_feed_dict = property(lambda self: self._local_init_feed_dict)
    summary_op = property(lambda self: self._summary_op)
    saver = property(lambda self: self._saver)
    init_feed_dict = property(lambda self: self._init_feed_dict)
