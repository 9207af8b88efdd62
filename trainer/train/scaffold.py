"""tf.train.Scaffold: the ops a monitored session needs around the model (init, ready checks, saver, summaries)."""
from ..framework.graph import get_default_graph
from ..framework.graph_keys import GraphKeys
from ..ops.variables import (global_variables, global_variables_initializer, local_variables_initializer,
                             report_uninitialized_variables)
from ..summary.ops import merge_all
from .logger import logger
from .saver import Saver


def collection_item_or_default(graph, collection_key, make, several):
    """The item of `graph`'s collection, else make(), added to the collection (None stays out).

    several(items) answers when the collection holds more than one: Scaffold refuses, Supervisor takes the
    first (as in TF1)."""
    items = graph.get_collection(collection_key)
    if items:
        return items[0] if len(items) == 1 else several(items)
    made = make()
    if made is not None:
        graph.add_to_collection(collection_key, made)
    return made


def _get_or_default(arg_name, collection_key, default_constructor):
    def several(items):
        raise RuntimeError(f"More than one item in the collection {collection_key!r}. Please indicate which one "
                           f"to use by passing it to the tg.train.Scaffold constructor as: "
                           f"tg.train.Scaffold({arg_name}=item to use)")
    return collection_item_or_default(get_default_graph(), collection_key, default_constructor, several)


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
        if self._init_op is None:
            self._init_op = _get_or_default("init_op", GraphKeys.INIT_OP, global_variables_initializer)
        if self._ready_op is None:
            self._ready_op = _get_or_default("ready_op", GraphKeys.READY_OP, report_uninitialized_variables)
        if self._ready_for_local_init_op is None:
            self._ready_for_local_init_op = _get_or_default(
                "ready_for_local_init_op", GraphKeys.READY_FOR_LOCAL_INIT_OP,
                lambda: report_uninitialized_variables(global_variables()))
        if self._local_init_op is None:
            self._local_init_op = _get_or_default("local_init_op", GraphKeys.LOCAL_INIT_OP,
                                                  Scaffold.default_local_init_op)
        if self._summary_op is None:
            self._summary_op = _get_or_default("summary_op", GraphKeys.SUMMARY_OP, merge_all)
        if self._saver is None:
            self._saver = _get_or_default("saver", GraphKeys.SAVERS, lambda: Saver(sharded=True, allow_empty=True))
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
