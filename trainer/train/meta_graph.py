"""A graph as TF's MetaGraphDef and back: export_scoped_meta_graph and import_scoped_meta_graph, which
tf.train's export_meta_graph / import_meta_graph (saver.py) and tf.saved_model build on.

Export writes the GraphDef (every node with its attrs and "_output_shapes"), the collections TF1 keeps (variables
as VariableDef bytes, ops and tensors as node names, numbers and strings as lists; Python objects such as queue
runners are left out, as TF1 leaves them out) and the SaverDef. Import rebuilds each node through the op registry
from its type and attrs, variables as Variables, then the collections. A tg.cond is written as TF1's Switch and
Merge nodes and rebuilt as a cond (cond_nodes.py). A node whose attrs cannot be written (a while_loop body, a tf.data
function: a sub-graph, not data) is marked at export, and importing it raises NotImplementedError naming the op types.
"""
import inspect

import numpy as np

from ..framework.graph import get_default_graph
from ..framework.meta_graph import CollectionDef, MetaGraphDef, VariableDef, attr_python
from ..framework.node_def import AttrValue, NodeDef, attr_value, graph_def, register_graph_def_writer
from ..framework.operation import Operation
from ..framework.registry import op_def
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from ..framework.dtypes import as_dtype
from ..ops.array_ops import reshape
from ..ops.strided_slice_ops import strided_slice
from ..ops.variables import Variable, imported_variable
from .cond_nodes import (INPUTS, body_of, cond_of, part_of, rebuild_cond, ringflow_inputs, write_conds,
                         written_as_nodes)
from .loop_frames import written_as_loop, written_loops
from .loop_nodes import write_loops
from .tf_cond_nodes import has_tf_conds, read_tf_conds
from .tf_loop_nodes import has_tf_loops, loop_back_edge, read_tf_loops, rebuild_gradient_loop, rebuild_loop
from .tf_gather_nodes import SPARSE_APPLY_OPS
from .tf_node_defs import from_tf_form, from_tf_inputs, strided_slice_key, to_tf_form
from .tf_nodes import ADDED, MOVED, ORIGINAL
from ..platform import tf_logging as logging
from ..platform.version import GIT_VERSION, TF_API_VERSION

UNWRITTEN = "_ringflow_unwritten_attrs"  # names the attrs export could not write, so import can say why it stops
# what control flow and tf.data functions keep on their ops beside attrs: the bodies a Cond or While runs, the
# body an op belongs to
SUB_GRAPHS = ("bodies", "control_flow")
NONE = "_ringflow_none_attrs"  # attrs that are None (an AttrValue has no None), which kernels read all the same
_SHAPES = "_output_shapes"
ALIASES = {
    "SelectV2": "Select",  # ringflow's Select broadcasts as TF's SelectV2 does (tf_node_defs.py)
    "AddV2": "Add",  # TF2's name for the op TF 1.15 graphs also call AddV2; ringflow's is TF1's older Add
    "RandomStandardNormal": "RandomNormal",  # ringflow's draws and scales in one op (tf_random_nodes.py)
    # A resource variable (tf.keras' weights, get_variable(use_resource=True), TF 2's canned estimators) is read,
    # assigned and updated through its handle; ringflow rebuilds it as a variable of its own and these as the
    # reference variable's ops, which compute the same values (the handle's ops have no outputs TF programs fetch).
    "VarHandleOp": "VariableV2", "ReadVariableOp": "Identity", "AssignVariableOp": "Assign",
    "AssignAddVariableOp": "AssignAdd", "AssignSubVariableOp": "AssignSub", "VarIsInitializedOp": "IsVariableInitialized",
    "ResourceGather": "GatherV2",
    **{f"Resource{op}": op for op in ("ApplyGradientDescent", "ApplyMomentum", "ApplyAdam", "ApplyAdagrad",
                                      "ApplyRMSProp", "ApplyCenteredRMSProp", "ApplyAdadelta", "ApplyFtrlV2",
                                      "ApplyProximalGradientDescent", *SPARSE_APPLY_OPS, "ScatterAdd", "ScatterSub")},
}


def export_scoped_meta_graph(graph=None, saver_def=None, collection_list=None, clear_devices=False,
                             meta_info_def=None, strip_default_attrs=False):
    """The MetaGraphDef of `graph` (default: the default graph): nodes, the collections, the SaverDef."""
    graph = graph or get_default_graph()
    nodes = tf_graph_def(graph, add_shapes=True)
    for node in nodes.node if clear_devices else ():
        node.device = ""
    meta = MetaGraphDef()
    meta.graph_def.node.extend(nodes.node)  # the nodes themselves: MetaGraphDef(graph_def=...) would copy them all
    info = meta.meta_info_def
    if meta_info_def is not None:
        info.CopyFrom(meta_info_def)
    info.meta_graph_version = info.meta_graph_version or f"v{TF_API_VERSION}"
    info.tensorflow_version = info.tensorflow_version or TF_API_VERSION
    info.tensorflow_git_version = info.tensorflow_git_version or GIT_VERSION
    info.stripped_default_attrs = bool(strip_default_attrs)
    if saver_def is not None:
        meta.saver_def.CopyFrom(saver_def)
    keys = graph.get_all_collection_keys() if collection_list is None else collection_list
    for key in keys:
        collection = _collection_def(key, graph.get_collection(key))
        if collection is not None:
            meta.collection_def[key] = collection
    return meta


def tf_graph_def(graph, add_shapes=False):
    """`graph` as a GraphDef in TF's node forms (Graph.as_graph_def, and the graph export_meta_graph writes):
    ringflow's nodes rewritten as TF's ops (tf_node_defs.py), conds and loops as TF1's frames, each node keeping
    what ringflow's import needs in "_" attrs; add_shapes gives each node "_output_shapes"."""
    nodes, (loops, roles) = graph_def(graph, add_shapes=True), written_loops(graph)
    for node, op in zip(nodes.node, graph.get_operations()):
        lost = sorted(k for k, v in op.attrs.items() if v is not None and attr_value(v) is None)
        lost += [k for k in SUB_GRAPHS if getattr(op, k, None) and not written_as_nodes(op, loops)
                 and not written_as_loop(op, loops)]
        nones = sorted(k for k, v in op.attrs.items() if v is None)
        for key, names in ((UNWRITTEN, lost), (NONE, nones)):
            if names:
                node.attr[key] = AttrValue(list=AttrValue.ListValue(s=[k.encode() for k in names]))
    added = []
    for node, op in zip(nodes.node, graph.get_operations()):
        to_tf_form(node, op, added)
    nodes.node.extend(_unclashed(nodes.node, added))
    write_conds(nodes, graph, loops)
    write_loops(nodes, graph, loops, roles)
    _read_moved_outputs(nodes.node)
    for node in nodes.node if not add_shapes else ():  # the shapes serve the writers above; TF's lacks them
        node.attr.pop(_SHAPES, None)
    return nodes


register_graph_def_writer(tf_graph_def)


def _read_moved_outputs(nodes):
    """Point the inputs that read an output TF's op lacks ("dropout/mul_1:1") at the added node computing it,
    keeping ringflow's own inputs for import."""
    moved = {n.attr[MOVED].s.decode(): n.name for n in nodes if MOVED in n.attr}
    for node in nodes if moved else ():
        if MOVED not in node.attr and any(i in moved for i in node.input):  # a mover reads TF's op's own outputs
            if INPUTS not in node.attr and ORIGINAL not in node.attr:
                node.attr[INPUTS] = AttrValue(list=AttrValue.ListValue(s=[i.encode() for i in node.input]))
            node.input[:] = [moved.get(i, i) for i in node.input]


def _unclashed(nodes, added):
    """The nodes TF's form adds, less those a graph TF wrote already holds (a Sum's reduction_indices Const, which
    ringflow's import read into an attr and kept): the same Const under the same name. Another node of that name is
    a clash, named."""
    by_name = {node.name: node for node in nodes}
    kept = []
    for node in added:
        held = by_name.get(node.name)
        if held is None:
            kept.append(node)
        elif held.op != node.op or held.attr.get("value") != node.attr.get("value"):
            raise ValueError(f"export_meta_graph: node {node.name!r} ({held.op}) has the name of the {node.op} "
                             "TensorFlow's form of its consumer needs; rename the op")
    return kept


def _collection_def(key, items):
    if not items or key == "savers":  # the exported graph's Saver is its SaverDef; an empty Saver has none
        return None
    if all(hasattr(v, "to_proto") for v in items):  # Variables as VariableDef, Savers as SaverDef, as TF1 does
        return CollectionDef(bytes_list={"value": [v.to_proto().SerializeToString() for v in items]})
    if all(isinstance(v, (Tensor, Operation)) for v in items):
        return CollectionDef(node_list={"value": [v.name for v in items]})
    if all(isinstance(v, (str, bytes)) for v in items):
        return CollectionDef(bytes_list={"value": [v.encode() if isinstance(v, str) else v for v in items]})
    if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in items):
        return CollectionDef(int64_list={"value": [int(v) for v in items]})
    if all(isinstance(v, (float, np.floating)) for v in items):
        return CollectionDef(float_list={"value": [float(v) for v in items]})
    logging.warning(f"Collection {key!r} holds Python objects ({type(items[0]).__name__}) a MetaGraphDef cannot "
                    "hold; it is left out of the exported graph, as TF1 leaves such collections out")
    return None


def _split(name):
    """("op", index) of a NodeDef input ("op", "op:1"); control inputs are handled by the caller."""
    op, _, index = name.partition(":")
    return op, int(index or 0)


def _attrs(node):
    # "T" is what node_def adds for TF's tools (ringflow ops have none); "_"-attrs are annotations, not inputs.
    # use_locking: TF's update ops may take a lock, ringflow's updates run one at a time.
    attrs = {key: attr_python(value) for key, value in node.attr.items()
             if key not in ("T", "use_locking") and not key.startswith("_")}
    if node.op == "Const":
        attrs.pop("dtype", None)
    if NONE in node.attr:
        attrs.update((name.decode(), None) for name in node.attr[NONE].list.s)
    return attrs


def _accepted(op_type, attrs):
    """attrs less those ringflow's op does not take (TF's Assign has use_locking and validate_shape, ringflow's
    has none), judged by the signatures of its inference and forward function."""
    d, names = op_def(op_type), set()
    for fn in (d.infer, d.forward):
        if fn is None:
            continue
        params = inspect.signature(fn).parameters.values()
        if any(p.kind is p.VAR_KEYWORD for p in params):
            return attrs
        names.update(p.name for p in params)
    return {key: value for key, value in attrs.items() if key in names}


def _outputs(node, op_type, inputs, attrs):
    """(attrs, [(shape, dtype)] per output): the registry's inference (with the attrs the op takes, for a
    graph TF wrote), or the shapes and dtype the NodeDef records (an op ringflow builds with its own specs)."""
    forward = op_def(op_type).forward
    if forward is not None:  # its kernel is forward(*inputs, **attrs): TF's extra attrs (AddN's N) cannot reach it
        params = inspect.signature(forward).parameters.values()
        if not any(p.kind is p.VAR_KEYWORD for p in params):
            attrs = {key: value for key, value in attrs.items() if key in {p.name for p in params}}
    for tried in (attrs, _accepted(op_type, attrs)):
        try:
            return tried, op_def(op_type).infer(*inputs, **tried)
        except Exception:  # noqa: BLE001 - an op whose registered inference is not how it is built
            continue
    shapes = node.attr[_SHAPES].list.shape if _SHAPES in node.attr else []
    dtype = node.attr["dtype"] if "dtype" in node.attr else node.attr.get("T")
    if dtype is None:
        raise ValueError(f"import_meta_graph: cannot tell the outputs of node {node.name!r} ({op_type}): its "
                         "inputs and attrs do not fit ringflow's op, and the NodeDef records no dtype")
    return attrs, [(TensorShape(s), as_dtype(dtype.type)) for s in shapes]


def _without_tf_saver(meta):
    """The nodes to rebuild: all but the scopes of the Savers that hold op types ringflow lacks ("save/",
    "save_1/"), for which import_meta_graph builds a Saver of its own; a Saver of SaveV2, RestoreV2 and Assign
    ops, sharded ones' ShardedFilename and MergeV2Checkpoints included, is rebuilt and runs as TF's does."""
    nodes = list(meta.graph_def.node)
    scopes = {n.name.rpartition("/")[0] + "/" for n in nodes if n.op in ("SaveV2", "RestoreV2")}
    foreign = {scope for scope in scopes if any(n.name.startswith(scope) and not _registered(n.op) for n in nodes)}
    return [n for n in nodes if not any(n.name.startswith(scope) for scope in foreign)]


def _registered(op_type):
    try:
        op_def(ALIASES.get(op_type, op_type))
    except NotImplementedError:
        return False
    return True


def _inputs_first(nodes):
    """The nodes ordered so that each comes after its inputs (a GraphDef need not be: export appends the nodes it
    adds in TF's form at the end), keeping the file's order otherwise; a while loop's back edges aside."""
    by_name, done, opened, ordered = {n.name: n for n in nodes}, set(), set(), []
    for start in nodes:
        stack = [(start, False)]
        while stack:
            node, expanded = stack.pop()
            if node.name in done or (not expanded and node.name in opened):  # a cycle's back edge: file order
                continue
            opened.add(node.name)
            if expanded:
                done.add(node.name)
                ordered.append(node)
                continue
            stack.append((node, True))
            for name in reversed(node.input):
                source = by_name.get(name.lstrip("^").partition(":")[0])
                if source is not None and source.name not in done and not loop_back_edge(node, source):
                    stack.append((source, False))
    return ordered


# TF2's functional control flow (cond_v2, while_v2: tf.function's, and TF 2.x estimators' summaries) keeps its
# bodies as FunctionDefs in the GraphDef's library, which ringflow does not read
FUNCTIONAL = {op: "TF2's functional control flow: its branches are functions in the GraphDef's library, which "
                  "ringflow does not rebuild; TF1's tf.cond (Switch/Merge) imports"
              for op in ("If", "StatelessIf", "While", "StatelessWhile", "Case", "StatelessCase",
                         "PartitionedCall", "StatefulPartitionedCall")}


def _check_rebuildable(nodes, parts):
    lost = {}
    for node in nodes:
        if node.name in parts:
            continue
        op_type = ALIASES.get(node.op, node.op)
        if UNWRITTEN in node.attr:
            lost.setdefault(node.op, set()).update(s.decode() for s in node.attr[UNWRITTEN].list.s)
        else:
            try:
                op_def(op_type)
            except NotImplementedError:
                why = FUNCTIONAL.get(node.op, "the op type is not registered in ringflow")
                lost.setdefault(node.op, {why})
    if lost:
        described = "; ".join(f"{op} ({', '.join(sorted(attrs))})" for op, attrs in sorted(lost.items()))
        raise NotImplementedError(
            f"import_meta_graph cannot rebuild the op types {sorted(lost)}: their attrs hold sub-graphs or Python "
            f"functions a MetaGraphDef does not carry, or ringflow lacks the op: {described}. Build the graph with "
            "the same Python code instead and restore its variables with tg.train.Saver().restore(sess, prefix)")


def import_scoped_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, graph=None):
    """Rebuild a MetaGraphDef's graph in `graph` (default: the default graph), under import_scope when given;
    returns {variable name: Variable} of the variables it made."""
    meta = read_meta_graph_file(meta_graph_or_file) if isinstance(meta_graph_or_file, str) else meta_graph_or_file
    graph = graph or get_default_graph()
    constants = {n.name: attr_python(n.attr["value"]) for n in meta.graph_def.node if n.op == "Const"}
    kept, loops = _inputs_first([n for n in _without_tf_saver(meta) if ADDED not in n.attr]), {}
    if has_tf_loops(kept):
        kept, loops = read_tf_loops(kept)
        kept = _inputs_first(kept)  # a stand-in reads every tensor its loop reads, some written after its Exit
    if has_tf_conds(kept):
        kept = read_tf_conds(kept)
    ringflows = {n.name for n in kept if ORIGINAL in n.attr}  # nodes ringflow wrote in TF's form, and kept
    parts = {n.name: part_of(n) for n in kept if part_of(n)}
    bodies = {}
    for n in kept:
        bodies.setdefault(body_of(n), []).append(_ringflow_form(n))
    _check_rebuildable([node for group in bodies.values() for node in group], parts)
    by_name = {node.name: node for group in bodies.values() for node in group}

    def scoped(name):
        return f"{import_scope}/{name}" if import_scope else name

    # conds: the tensors that stand for the nodes of TF's control flow ("C/Merge:0", "F/Exit_1:0", and inside a
    # loop's functions its variables, "F/Identity_1:0")
    made, taken, conds = {}, {op.name for op in graph.get_operations()}, {}

    def resolve(name):
        op, k = _split(name)
        made_by_cond = conds.get(f"{op}:{k}")
        return graph.get_operation_by_name(scoped(op)).outputs[k] if made_by_cond is None else made_by_cond

    def control(name):
        """The op a control input names: a loop's stand-in (its Exit) is the loop's op."""
        made_by_cond = conds.get(f"{name}:0")
        return graph.get_operation_by_name(scoped(name)) if made_by_cond is None else made_by_cond.op

    def build(group):
        for node in group:
            part = parts.get(node.name)
            cond_name = cond_of(node) if part == "merge" else None
            if part == "merge" and f"{cond_name}:0" not in conds:
                _reserve(graph, scoped(cond_name))
                conds.update(rebuild_cond(by_name[f"{cond_name}/pred_id"], resolve,
                                          lambda body: build(bodies.get(body, [])), scoped))
            elif part == "gradient loop" and f"{node.name}:0" not in conds:
                conds.update(rebuild_gradient_loop(loops[node.name], resolve, graph))
            elif part == "loop" and f"{node.name}:0" not in conds:
                _reserve(graph, scoped(loops[node.name].name))
                conds.update(rebuild_loop(loops[node.name], [resolve(i) for i in ringflow_inputs(node)], resolve,
                                          conds.update, lambda body: build(bodies.get(body, [])), scoped))
            elif part is None:
                _build_node(graph, node, scoped, resolve, control, taken, constants, node.name in ringflows,
                            clear_devices)

    with graph.as_default(), graph.name_scope(None), graph.control_dependencies(None):
        build(bodies.get(None, []))
        for key, collection in meta.collection_def.items():
            if key in ("savers", "cond_context", "while_context"):
                # SaverDefs: import_meta_graph builds the Saver anew; TF's control-flow contexts name the Switch
                # and Merge nodes ringflow's conds replace, and would not hold in a graph ringflow exports
                continue
            for item in _collection_items(graph, collection, scoped, import_scope, key in _VARIABLE_KEYS):
                if isinstance(item, Variable):
                    made[item.op.name] = item
                graph.add_to_collection(key, item)
    return made


_VARIABLE_KEYS = ("variables", "trainable_variables", "local_variables", "model_variables", "global_step",
                  "moving_average_variables", "metric_variables")


def _collection_items(graph, collection, scoped, import_scope, variables):
    kind = collection.WhichOneof("kind")
    if kind == "node_list":
        return [graph.as_graph_element(scoped(name)) for name in collection.node_list.value]
    if kind == "bytes_list":
        values = collection.bytes_list.value
        if variables:
            return [Variable.from_proto(VariableDef.FromString(v), import_scope) for v in values]
        return list(values)
    if kind == "int64_list":
        return list(collection.int64_list.value)
    if kind == "float_list":
        return list(collection.float_list.value)
    return []


def _ringflow_form(node):
    """The node as ringflow built it: its ORIGINAL, or its inputs before export pointed them at Switches/Merges."""
    if ORIGINAL in node.attr:
        return from_tf_form(node)
    ringflow = NodeDef.FromString(node.SerializeToString())
    del ringflow.input[:]
    ringflow.input.extend(ringflow_inputs(node))
    return ringflow


def _build_node(graph, node, scoped, resolve, control, taken, constants, ringflow_form, clear_devices):
    name = scoped(node.name)
    if name in taken:
        raise ValueError(f"import_meta_graph: the graph already has an op named {name!r}; import into an "
                         "empty graph (tg.Graph().as_default()) or give import_scope")
    _reserve(graph, name)
    attrs = _attrs(node)
    data = [i for i in node.input if not i.startswith("^")]
    if node.op == "StridedSlice" and "key" not in attrs:  # TF's form (tf_node_defs.py)
        key = strided_slice_key(node, constants)
        if key is None:  # positions computed while running (x[i] in a loop): tf.strided_slice's ops, and its name
            masks = {k: v for k, v in attrs.items() if k.endswith("_mask")}
            positions = [constants[i] if i in constants else resolve(i) for i in data[1:4]]
            with graph.name_scope(name + "/"):
                sliced = strided_slice(resolve(data[0]), *positions, **masks)
            graph.create_op("Identity", [sliced], [(sliced.shape, sliced.dtype)], name=name, unique=False)
            return
        data, attrs = data[:1], {"key": key}
    elif not ringflow_form:
        data, attrs = from_tf_inputs(node, data, attrs, constants)
    inputs = [resolve(i) for i in data]
    if node.op == "Select" and not ringflow_form and inputs[0].shape.ndims == 1 and (inputs[1].shape.ndims or 0) > 1:
        with graph.name_scope(name + "/"):  # TF1's Select picks rows by a vector condition; ringflow's broadcasts
            inputs[0] = reshape(inputs[0], [-1] + [1] * (inputs[1].shape.ndims - 1))
    controls = [control(i[1:]) for i in node.input if i.startswith("^")]
    op_type = ALIASES.get(node.op, node.op)
    if op_type == "VariableV2":
        op = imported_variable(graph, name, attrs["shape"], attrs["dtype"]).op
    else:
        attrs, outputs = _outputs(node, op_type, inputs, attrs)
        op = graph.create_op(op_type, inputs, outputs, name=name, attrs=attrs, control_inputs=controls,
                             unique=False)
        folded = _folded(op, [constants.get(i) for i in data], attrs)
        if folded is not None:
            constants[node.name] = folded
    if node.device and not clear_devices:
        op.device = node.device


def _folded(op, values, attrs):
    """The value of an integer op of constants and static shapes, which TF's graph optimizer folds before a step
    runs (dynamic_rnn's transpose permutation: the concat of [1, 0] and range(2, rank(x))), so that ops taking it
    as an attr import; None for any other op."""
    if len(op.outputs) != 1 or op.outputs[0].dtype.kind not in "iu":
        return None
    shape = op.inputs[0].shape if op.inputs else None
    if op.type == "Rank" and shape.ndims is not None:
        return np.int32(shape.ndims)
    if op.type == "Shape" and shape.is_fully_defined():
        return np.array(shape.as_list(), op.outputs[0].dtype)
    if not values or any(v is None for v in values):
        return None
    if op.type == "InvertPermutation":  # a host kernel: the gradient of dynamic_rnn's transpose
        return np.argsort(values[0]).astype(op.outputs[0].dtype)
    forward = op_def(op.type).forward
    return None if forward is None else forward(*values, **attrs)


def _reserve(graph, name):
    """Mark `name` and its scopes used, as TF1's import does, so later ops get fresh names beside them."""
    parts = name.split("/")
    for i in range(1, len(parts) + 1):
        prefix = "/".join(parts[:i])
        if graph.unique_name(prefix, mark_as_used=False) == prefix:
            graph.unique_name(prefix)


def read_meta_graph_file(filename):
    """A MetaGraphDef from a binary `.meta` file (TF's, or ringflow's)."""
    with open(filename, "rb") as f:
        raw = f.read()
    try:
        return MetaGraphDef.FromString(raw)
    except (ValueError, TypeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{filename!r} is not a binary MetaGraphDef ({exc}): pass the `.meta` file Saver.save "
                         "or tf.train.export_meta_graph wrote") from None



def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """tf.import_graph_def: a GraphDef's nodes rebuilt in the default graph under the name scope `name` ("import"
    by default, none for name=""); returns the Operations/Tensors named in return_elements (None without it)."""
    if input_map:
        raise NotImplementedError("import_graph_def(input_map=...) is not available in ringflow: import the graph, "
                                  "then feed its placeholders by name in Session.run")
    graph = get_default_graph()
    scope = graph.unique_name("import" if name is None else name) if name != "" else ""
    import_scoped_meta_graph(MetaGraphDef(graph_def=graph_def), import_scope=scope or None, graph=graph)
    if return_elements is None:
        return None
    return [graph.as_graph_element(f"{scope}/{element}" if scope else element) for element in return_elements]
