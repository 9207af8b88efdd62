"""tf.train.warm_start and VocabInfo: variables whose initializers take their values from an earlier run's
checkpoint, by name (or the name var_name_to_prev_var_name gives), an embedding's rows (or columns) remapped from
the old vocabulary to the new one, as TF1's warm_starting_util does.

A remapped variable's initial value is computed from the checkpoint and the vocabulary files when warm_start is
called (TF reads them when the initializer runs); new words and OOV buckets take backup_initializer's values, or
zeros."""
import collections
import re

import numpy as np

from .checkpoint_management import load_variable
from .checkpoint_utils import init_from_checkpoint
from ..framework.graph import get_default_graph
from ..ops.core_ops import constant
from ..ops.math_ops import where
from ..ops.variables import GLOBAL_VARIABLES, TRAINABLE_VARIABLES, Variable
from ..platform import gfile


class VocabInfo(collections.namedtuple("VocabInfo", ["new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab",
                                                     "old_vocab_size", "backup_initializer", "axis"])):
    """How an embedding's rows (axis 0) or columns (axis 1) map from old_vocab's words to new_vocab's (files of
    one word a line; the first *_vocab_size lines, all of old_vocab when -1), plus num_oov_buckets new ones."""

    def __new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size=-1,
                backup_initializer=None, axis=0):
        if axis not in (0, 1):
            raise ValueError(f"The only supported values for the axis argument are 0 and 1.  Provided axis: {axis}")
        return super().__new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size,
                               backup_initializer, axis)


def _words(path, size):
    with gfile.GFile(path) as f:
        words = [line.rstrip("\n") for line in f]
    return words if size is None or size < 0 else words[:size]


def _chosen(vars_to_warm_start):
    graph = get_default_graph()
    if vars_to_warm_start is None:
        return []
    if isinstance(vars_to_warm_start, str):  # a regex over the trainable variables, matched from the start
        return [v for v in graph.get_collection(TRAINABLE_VARIABLES) if re.match(vars_to_warm_start, v.op.name)]
    chosen = []
    for item in vars_to_warm_start:
        found = [item] if isinstance(item, Variable) else graph.get_collection(GLOBAL_VARIABLES, item)
        chosen += [v for v in found if v not in chosen]
    return chosen


def _remapped(var, ckpt, prev_name, info):
    old = np.asarray(load_variable(ckpt, prev_name))
    new_words, old_words = _words(info.new_vocab, info.new_vocab_size), _words(info.old_vocab, info.old_vocab_size)
    where_old = {word: i for i, word in enumerate(old_words) if i < old.shape[info.axis]}
    shape = list(var.shape)
    known, found = np.zeros(shape, var.dtype), np.zeros(shape[info.axis], bool)
    for i, word in enumerate(new_words[:shape[info.axis]]):
        if word in where_old:
            found[i] = True
            index = (i,) if info.axis == 0 else (slice(None), i)
            known[index] = old[(where_old[word],) if info.axis == 0 else (slice(None), where_old[word])]
    value = constant(known, name="warm_started_value")
    if info.backup_initializer is not None:
        mask = constant(found.reshape((-1, 1) if info.axis == 0 else (1, -1)) & np.ones(shape, bool))
        value = where(mask, value, info.backup_initializer(shape, dtype=var.dtype))
    var.initializer, var.initial_value = var.assign(value).op, value


def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
    """Make the chosen variables' initializers read the checkpoint (a directory or prefix): vars_to_warm_start is a
    regex over the trainable variables, a list of regexes over the global ones (or of Variables), or None (only
    those of var_name_to_vocab_info). Run it before global_variables_initializer() is built."""
    vocab = dict(var_name_to_vocab_info or {})
    prev = dict(var_name_to_prev_var_name or {})
    chosen = _chosen(vars_to_warm_start)
    if vars_to_warm_start is None:
        chosen = [v for v in get_default_graph().get_collection(TRAINABLE_VARIABLES) if v.op.name in vocab]
    used = set()
    for var in chosen:
        name = var.op.name
        used.add(name)
        if name in vocab:
            with var.graph.as_default():
                _remapped(var, ckpt_to_initialize_from, prev.get(name, name), vocab[name])
        else:
            init_from_checkpoint(ckpt_to_initialize_from, {prev.get(name, name): var})
    for label, names in (("var_name_to_vocab_info", vocab), ("var_name_to_prev_var_name", prev)):
        unused = sorted(set(names) - used)
        if unused:
            raise ValueError(f"You provided the following variables in {label} that were not used: {unused}.  "
                             "Perhaps you misspelled them?  Here is the list of viable variable names: "
                             f"{sorted(used)}")
