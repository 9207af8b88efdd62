"""tf.saved_model.loader: load a SavedModel's graph for a set of tags into a session and restore its variables."""
import os

from ..framework.meta_graph import SavedModel
from ..platform.errors import NotFoundError
from ..train.saver import import_meta_graph
from . import constants


def read_saved_model(export_dir):
    """The SavedModel message of export_dir's saved_model.pb."""
    export_dir = os.fsdecode(export_dir)  # a str, bytes (TF's serving examples) or path-like, as TF takes
    path = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)
    if not os.path.isfile(path):
        raise OSError(f"SavedModel file does not exist at: {export_dir}/{{{constants.SAVED_MODEL_FILENAME_PB}|"
                      f"{constants.SAVED_MODEL_FILENAME_PBTXT}}} (ringflow reads the binary saved_model.pb)")
    with open(path, "rb") as f:
        raw = f.read()
    try:
        return SavedModel.FromString(raw)
    except (ValueError, TypeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path!r} is not a SavedModel protobuf ({exc}): the file is damaged") from None


def maybe_saved_model_directory(export_dir):
    """Whether export_dir holds a SavedModel."""
    export_dir = os.fsdecode(export_dir)
    return any(os.path.isfile(os.path.join(export_dir, name)) for name in
               (constants.SAVED_MODEL_FILENAME_PB, constants.SAVED_MODEL_FILENAME_PBTXT))


def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """Import the MetaGraphDef tagged exactly `tags` into sess's graph, restore its variables into sess, run
    its main op (or legacy init op); returns the MetaGraphDef (its signature_def names the tensors)."""
    export_dir = os.fsdecode(export_dir)
    saved_model = read_saved_model(export_dir)
    found = [m for m in saved_model.meta_graphs if set(m.meta_info_def.tags) == set(tags)]
    if not found:
        available = [list(m.meta_info_def.tags) for m in saved_model.meta_graphs]
        raise RuntimeError(f"MetaGraphDef associated with tags {sorted(tags)!r} could not be found in SavedModel "
                           f"{export_dir!r}; it holds the tag sets {available!r}")
    meta = found[0]
    with sess.graph.as_default():
        saver = import_meta_graph(meta, import_scope=import_scope, **saver_kwargs)
        if saver is not None:
            prefix = os.path.join(export_dir, constants.VARIABLES_DIRECTORY, constants.VARIABLES_FILENAME)
            if not os.path.isfile(prefix + ".index"):
                raise NotFoundError(f"SavedModel {export_dir!r} has variables but no {prefix + '.index'!r}")
            saver.restore(sess, prefix)
        for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
            ops = sess.graph.get_collection(key)
            if ops:
                sess.run(ops[0])
                break
    return meta
