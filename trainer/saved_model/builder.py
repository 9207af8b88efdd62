"""tf.saved_model.builder.SavedModelBuilder and simple_save: a graph and its variables as TF's SavedModel.

    export_dir/saved_model.pb                      a SavedModel: one MetaGraphDef per set of tags
    export_dir/variables/variables.index           the variables as a TF checkpoint (tensor_bundle.py)
    export_dir/variables/variables.data-00000-of-00001

TensorFlow's loader reads it as it reads its own; loader.load reads both back.
"""
import os

from ..framework.graph import get_default_graph
from ..framework.meta_graph import SavedModel
from ..platform.atomic_file import atomic_write
from ..train.saver import Saver
from . import constants, signature_constants, tag_constants
from .signature_def_utils import predict_signature_def


class SavedModelBuilder:
    """Builds a SavedModel in export_dir (which must not exist yet, or be empty), as TF1's builder does."""

    def __init__(self, export_dir):
        export_dir = os.fsdecode(export_dir)  # TF's serving examples pass tf.compat.as_bytes(path)
        if os.path.exists(export_dir) and os.listdir(export_dir):
            raise AssertionError(f"Export directory already exists, and isn't empty. Please choose a different "
                                 f"export directory, or delete all the contents of the specified directory: "
                                 f"{export_dir}")
        self._export_dir = export_dir
        self._saved_model = SavedModel(saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
        self._has_variables = False

    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None, assets_collection=None,
                                     legacy_init_op=None, clear_devices=False, main_op=None,
                                     strip_default_attrs=False, saver=None):
        """Save sess's variables under export_dir/variables and add the graph tagged `tags`."""
        if self._has_variables:
            raise AssertionError("Graph state including variables and assets has already been saved. Please "
                                 "invoke `add_meta_graph()` instead.")
        saver = saver or Saver(allow_empty=True)
        directory = os.path.join(self._export_dir, constants.VARIABLES_DIRECTORY)
        os.makedirs(directory, exist_ok=True)
        saver.save(sess, os.path.join(directory, constants.VARIABLES_FILENAME), write_meta_graph=False,
                   write_state=False)
        self._has_variables = True
        self._add(tags, signature_def_map, legacy_init_op, main_op, clear_devices, saver, sess.graph)

    def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None, legacy_init_op=None,
                       clear_devices=False, main_op=None, strip_default_attrs=False, saver=None):
        """Add the default graph tagged `tags`, sharing the variables saved before."""
        if not self._has_variables:
            raise AssertionError("Graph state including variables and assets has not been saved yet. Please "
                                 "invoke `add_meta_graph_and_variables()` first.")
        self._add(tags, signature_def_map, legacy_init_op, main_op, clear_devices, saver or Saver(allow_empty=True),
                  get_default_graph())

    def _add(self, tags, signature_def_map, legacy_init_op, main_op, clear_devices, saver, graph):
        if isinstance(tags, str):
            raise TypeError(f"tags must be a list of strings, got the string {tags!r}: pass [{tags!r}]")
        with graph.as_default():
            for key, op in ((constants.MAIN_OP_KEY, main_op), (constants.LEGACY_INIT_OP_KEY, legacy_init_op)):
                if op is not None:
                    graph.clear_collection(key)
                    graph.add_to_collection(key, op)
            meta = saver.export_meta_graph(clear_devices=clear_devices, graph=graph)
        meta.meta_info_def.tags.extend(tags)
        for key, signature in (signature_def_map or {}).items():
            meta.signature_def[key] = signature
        self._saved_model.meta_graphs.append(meta)

    def save(self, as_text=False):
        """Write saved_model.pb (or .pbtxt with as_text) and return its path."""
        name = constants.SAVED_MODEL_FILENAME_PBTXT if as_text else constants.SAVED_MODEL_FILENAME_PB
        path = os.path.join(self._export_dir, name)
        with atomic_write(path, "w" if as_text else "wb", encoding="utf-8" if as_text else None) as f:
            f.write(str(self._saved_model) if as_text else self._saved_model.SerializeToString())
        return path


def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
    """Save a graph for serving: its variables and one predict signature ("serving_default") under the
    "serve" tag, from {name: Tensor} maps of inputs and outputs."""
    signature = {signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: predict_signature_def(inputs, outputs)}
    builder = SavedModelBuilder(export_dir)
    builder.add_meta_graph_and_variables(session, [tag_constants.SERVING], signature_def_map=signature,
                                         legacy_init_op=legacy_init_op)
    return builder.save()
