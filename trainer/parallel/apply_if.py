"""An update that runs only when a flag says so: the one tg.cond that gradient accumulation (update on the K-th
pass) and the non-finite policy (update when the gradients are finite) both build."""
from ..ops.control_flow_ops import cond
from ..ops.core_ops import constant


def apply_if(flag, apply, otherwise=None, name="apply_if"):
    """A bool Tensor, true when `apply()` (the update, an Operation) ran: tg.cond on the bool Tensor `flag`.

    `otherwise()`, when given, builds what runs instead (an Operation or Tensor, e.g. advancing the global step).
    `apply` is built in the caller's name scope, not the cond's, so the variables (optimizer slots) and ops it
    makes keep the names they have without a condition, and checkpoints stay interchangeable.
    """
    graph = flag.graph
    scope = graph.get_name_scope()

    def applied():
        with graph.name_scope(scope + "/" if scope else None):
            update = apply()
        with graph.control_dependencies([update]):
            return constant(True)

    def skipped():
        with graph.control_dependencies([otherwise()] if otherwise is not None else []):
            return constant(False)

    with graph.as_default():
        return cond(flag, applied, skipped, name=name)
