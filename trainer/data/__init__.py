"""tf.data (`tg.data`): TF1's input pipelines in graph mode, and ringflow's own data-parallel sharding.

TF1's names (Dataset, Iterator, experimental, make_one_shot_iterator, ...) run the pipeline inside the session
through iterator ops of the graph (iterator.py). Pipeline and the other sharding helpers (pipeline.py) are
ringflow's numpy input for `ringflow train`; they are kept under their old import path, trainer.data.
"""
from ..unsupported import missing_names
from . import experimental  # noqa: F401  (tf.data.experimental)
from .experimental import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY  # noqa: F401  (tf.data's own)
from .dataset import (Dataset, get_output_classes, get_output_shapes, get_output_types, make_initializable_iterator,
                      make_one_shot_iterator)
from .iterator import Iterator  # noqa: F401
from .options import Options, ThreadingOptions  # noqa: F401
from .readers import FixedLengthRecordDataset, TextLineDataset, TFRecordDataset  # noqa: F401
from .pipeline import (FINGERPRINT_ROWS, STATE_KEYS, Pipeline, check_state, epoch_permutation, eval_batches,
                       fingerprint, shard_bounds, steps_for_epochs)

# the names of TF1's tf.data ringflow lacks say so (hasattr() still answers False)
__getattr__ = missing_names(__name__, have="ringflow's tf.data has Dataset, Iterator, TextLineDataset, "
                            "TFRecordDataset, FixedLengthRecordDataset, tf.data.experimental and ringflow's sharding "
                            "helpers (Pipeline, shard_bounds, ...)", reasons={
                                "DatasetSpec": "TypeSpecs: a dataset's element is described by output_types, "
                                               "output_shapes and output_classes",
                                "NumpyIterator": "eager iteration (as_numpy_iterator): in graph mode, run an "
                                                 "iterator's get_next()"})
