"""tensorflow.python.tools.freeze_graph: a graph (GraphDef, MetaGraphDef or SavedModel) and a checkpoint of its
variables become one GraphDef in which each variable the outputs need is a constant, as TF1's tool makes it.

The graph is rebuilt and its variables restored through the tf.* namespaces above this floor, read from
sys.modules when the function runs (as views.py reads them); graph_util.convert_variables_to_constants does the
freezing.
"""
import os
import sys

from ..framework.graph_util import convert_variables_to_constants
from ...framework.meta_graph import MetaGraphDef, SaverDef
from ...framework.node_def import GraphDef
from ...platform import gfile, protobuf_text


def _names(text):
    return text.replace(" ", "").split(",") if text else None


def _read(path, message, binary):
    with gfile.GFile(path, "rb") as f:
        data = f.read()
    return message.FromString(data) if binary else protobuf_text.parse(data.decode("utf-8"), message)


def _restore(tf, sess, input_saver_def, input_checkpoint, input_meta_graph_def, input_saved_model_dir,
             saved_model_tags, initializer_nodes):
    if input_saved_model_dir:
        tf.saved_model.loader.load(sess, saved_model_tags, input_saved_model_dir)
        return
    if input_meta_graph_def is not None:
        tf.train.import_meta_graph(input_meta_graph_def).restore(sess, input_checkpoint)
    else:
        saver = tf.train.Saver(saver_def=input_saver_def) if input_saver_def else None
        if saver is None:  # the checkpoint's variables that the graph has, by name
            names = tf.train.NewCheckpointReader(input_checkpoint).get_variable_to_shape_map()
            found = {op.name: op.outputs[0] for op in sess.graph.get_operations() if op.name in names}
            saver = tf.train.Saver(var_list=found)
        saver.restore(sess, input_checkpoint)
    if initializer_nodes:
        sess.run(_names(initializer_nodes))


def freeze_graph_with_def_protos(input_graph_def, input_saver_def, input_checkpoint, output_node_names,
                                 restore_op_name, filename_tensor_name, output_graph, clear_devices,
                                 initializer_nodes, variable_names_whitelist="", variable_names_blacklist="",
                                 input_meta_graph_def=None, input_saved_model_dir=None, saved_model_tags=None,
                                 checkpoint_version=2):
    """The frozen GraphDef of `output_node_names` (comma-separated), written in binary to `output_graph` when
    given. restore_op_name, filename_tensor_name and checkpoint_version are TF's deprecated arguments, unused."""
    del restore_op_name, filename_tensor_name, checkpoint_version
    tf = sys.modules["trainer"]
    if not input_saved_model_dir and not tf.train.checkpoint_exists(input_checkpoint):
        raise ValueError(f"Input checkpoint {input_checkpoint!r} doesn't exist!")
    if not output_node_names:
        raise ValueError("You need to supply the name of a node to --output_node_names.")
    graph_def = input_meta_graph_def.graph_def if input_meta_graph_def is not None else input_graph_def
    if clear_devices:
        for node in graph_def.node:
            node.device = ""
    with tf.Graph().as_default(), tf.Session() as sess:
        if input_meta_graph_def is None and not input_saved_model_dir:
            tf.import_graph_def(input_graph_def, name="")
        _restore(tf, sess, input_saver_def, input_checkpoint, input_meta_graph_def, input_saved_model_dir,
                 saved_model_tags or ["serve"], initializer_nodes)
        if input_saved_model_dir:
            graph_def = sess.graph.as_graph_def()
        frozen = convert_variables_to_constants(sess, graph_def, _names(output_node_names),
                                                _names(variable_names_whitelist), _names(variable_names_blacklist))
    if output_graph:
        with gfile.GFile(output_graph, "wb") as f:
            f.write(frozen.SerializeToString())
    return frozen


def freeze_graph(input_graph, input_saver, input_binary, input_checkpoint, output_node_names, restore_op_name,
                 filename_tensor_name, output_graph, clear_devices, initializer_nodes, variable_names_whitelist="",
                 variable_names_blacklist="", input_meta_graph=None, input_saved_model_dir=None,
                 saved_model_tags="serve", checkpoint_version=2):
    """freeze_graph_with_def_protos on files: the graph (text unless input_binary), the SaverDef and the
    MetaGraphDef (each binary when input_binary) by path; saved_model_tags comma-separated. A missing graph
    file prints so and returns -1, as TF's tool does."""
    for path in (input_graph, input_saver, input_meta_graph):
        if path and not os.path.exists(path):
            print(f"Input file {path!r} does not exist!")
            return -1
    graph_def = _read(input_graph, GraphDef(), input_binary) if input_graph else None
    saver_def = _read(input_saver, SaverDef(), input_binary) if input_saver else None
    meta_graph_def = _read(input_meta_graph, MetaGraphDef(), input_binary) if input_meta_graph else None
    tags = _names(saved_model_tags) if isinstance(saved_model_tags, str) else saved_model_tags
    return freeze_graph_with_def_protos(graph_def, saver_def, input_checkpoint, output_node_names, restore_op_name,
                                        filename_tensor_name, output_graph, clear_devices, initializer_nodes,
                                        variable_names_whitelist, variable_names_blacklist, meta_graph_def,
                                        input_saved_model_dir, tags, checkpoint_version)
