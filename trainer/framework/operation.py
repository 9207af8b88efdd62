"""Operation: a node of the graph, with its inputs, attributes and output Tensors.

Separate from graph.py so a node's own state is declared in one place: Graph.create_op makes Operations,
and the control-flow ops (ops/control_flow_bodies.py) are the only other code that sets attributes on one.
"""
from . import stacks
from .node_def import node_def, node_def_text


class Operation:
    """A node of the graph: `type` names its op definition, `outputs` are its Tensors."""

    # Control flow (tg.cond, tg.while_loop) marks ops with these; an op outside any control flow keeps the
    # class defaults. `control_flow`: the Body (a cond branch or a loop body) an op was built in and runs in
    # only (None: the top level, run by the session's plan). `bodies`: on a "Cond" or "While" op itself, its
    # Bodies. `feeds`: on that op, the tensors its bodies' sub-plans are fed (captured values, loop variables).
    control_flow = None
    bodies = ()
    feeds = ()

    def __init__(self, graph, op_type, name, inputs, attrs, control_inputs):
        self.graph = graph
        self.type = op_type
        self.name = name
        self.inputs = tuple(inputs)
        self.attrs = attrs
        self.control_inputs = tuple(control_inputs)
        self.outputs = ()
        self.device = ""
        self.schedule_key = len(graph.operations)  # sessions run ready ops in this order (creation order)

    def schedule_after(self, producers, order=0.5):
        """Let sessions run this op as soon as `producers` (Operations) have, instead of in creation order.

        A session runs, among the ops whose inputs are ready, the one with the smallest schedule key; this
        moves the key just after the latest producer's. `order` in (0, 1) orders several ops placed after the
        same producer (a data-parallel bucket's allreduce starts during backward this way, in bucket order).
        """
        if not 0 < order < 1:
            raise ValueError(f"order must be in (0, 1), got {order!r}")
        self.schedule_key = max((p.schedule_key for p in producers), default=-1) + order

    def values(self):
        return self.outputs

    def run(self, feed_dict=None, session=None):
        """Run this operation in `session` (default: the current default session)."""
        stacks.resolve_session(session, self).run(self, feed_dict)

    def get_attr(self, name):
        return self.attrs[name]

    @property
    def node_def(self):
        """This op as TF1's NodeDef: name, op, input, device and attr."""
        return node_def(self)

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"

    def __str__(self):
        """The op as TF1 prints it: a NodeDef in protobuf text format."""
        return node_def_text(self)
