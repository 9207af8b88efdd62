"""tf.test.assert_equal_graph_def: two GraphDefs compared node by node, matched by name, as TF's EqualGraphDef does
(node order, attr order and the order of control inputs do not matter; data inputs' order does)."""
import re

from ..framework.node_def import GraphDef

# a V2 checkpoint's sharded save path holds a random temporary folder; a hash table's default shared name a uid
_SHARDED_SAVE_PATH = re.compile(rb"_temp_[0-9a-z]{32}/part")
_TABLE_SHARED_NAME = re.compile(rb"hash_table_[0-9a-z\-]+")


def _randomized(node, key, checkpoint_v2, hash_table_shared_name):
    value = node.attr[key]
    if checkpoint_v2 and value.WhichOneof("value") == "tensor" and len(value.tensor.string_val) == 1:
        return bool(_SHARDED_SAVE_PATH.match(value.tensor.string_val[0]))
    return (hash_table_shared_name and node.op == "HashTableV2" and key == "shared_name"
            and bool(_TABLE_SHARED_NAME.match(value.s)))


def _node_difference(actual, expected, ignore):
    name = actual.name
    for field in ("op", "device"):
        if getattr(actual, field) != getattr(expected, field):
            return (f"Node named '{name}' has {field} '{getattr(actual, field)}' that does not match expected "
                    f"'{getattr(expected, field)}'")
    data = [[i for i in node.input if not i.startswith("^")] for node in (actual, expected)]
    control = [sorted(i for i in node.input if i.startswith("^")) for node in (actual, expected)]
    if data[0] != data[1] or control[0] != control[1]:
        return f"Node named '{name}' has inputs {list(actual.input)} that do not match expected {list(expected.input)}"
    keys = [{k for k in node.attr if not ignore(node, k)} for node in (actual, expected)]
    for key in sorted(keys[1] - keys[0]):
        return f"Node named '{name}' missing expected attr '{key}' with value: {expected.attr[key]}"
    for key in sorted(keys[0] - keys[1]):
        return f"Node named '{name}' has unexpected attr '{key}' with value: {actual.attr[key]}"
    for key in sorted(keys[0]):
        if actual.attr[key] != expected.attr[key]:
            return (f"Node named '{name}' has attr '{key}' with value: {actual.attr[key]} that does not match "
                    f"expected: {expected.attr[key]}")
    return None


def assert_equal_graph_def(actual, expected, checkpoint_v2=False, hash_table_shared_name=False):
    """AssertionError naming the first difference between the GraphDefs (versions aside); checkpoint_v2 and
    hash_table_shared_name leave out the attrs that hold a save path's or a table's random part."""
    for label, graph_def in (("actual", actual), ("expected", expected)):
        if not isinstance(graph_def, GraphDef):
            raise TypeError(f"Expected tf.GraphDef for {label}, got {type(graph_def).__name__}")

    def ignore(node, key):
        return _randomized(node, key, checkpoint_v2, hash_table_shared_name)

    found = {node.name: node for node in actual.node}
    wanted = {node.name: node for node in expected.node}
    for name, node in wanted.items():
        if name not in found:
            raise AssertionError(f"Did not find expected node '{name}' (op {node.op!r}) in actual")
    for name, node in found.items():
        if name not in wanted:
            raise AssertionError(f"Found unexpected node '{name}' (op {node.op!r}) not in expected")
        difference = _node_difference(node, wanted[name], ignore)
        if difference:
            raise AssertionError(difference)
