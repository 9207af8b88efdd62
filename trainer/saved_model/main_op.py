"""tf.saved_model.main_op: the op a SavedModel runs after restoring its variables (TF1's main_op.py)."""
from ..framework.graph import get_default_graph
from ..framework.graph_wrappers import control_dependencies
from ..ops.core_ops import group
from ..ops.lookup_ops import tables_initializer
from ..ops.variables import local_variables_initializer


def main_op():
    """Initialize the local variables and the lookup tables, as a served graph needs after its restore."""
    return group(local_variables_initializer(), tables_initializer())


def main_op_with_restore(restore_op_name):
    """main_op, then the restore op named `restore_op_name` (a Saver's restore_all)."""
    with control_dependencies([main_op()]):
        return group(get_default_graph().as_graph_element(restore_op_name))
