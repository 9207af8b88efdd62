"""tf.data.experimental's readers of tf.train.Example records: parse_example_dataset (batches of serialized
Examples parsed into feature dicts) and make_batched_features_dataset (the files matching a pattern read, shuffled,
repeated, batched and parsed), on tf.parse_example's kernel."""
from ..ops.parsing_ops import parse_example
from .dataset import Dataset
from .readers import TFRecordDataset


def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """Each element, a vector of serialized tf.train.Example protos, parsed into {feature key: a batch tensor}."""
    if features is None:
        raise ValueError("Argument `features` is required, but not specified.")
    return lambda dataset: dataset.map(lambda serialized: parse_example(serialized, features))


def make_batched_features_dataset(file_pattern, batch_size, features, reader=None, label_key=None,
                                  reader_args=None, num_epochs=None, shuffle=True, shuffle_buffer_size=10000,
                                  shuffle_seed=None, prefetch_buffer_size=None, reader_num_threads=None,
                                  parser_num_threads=None, sloppy_ordering=False, drop_final_batch=False):
    """Batches of {feature key: tensor} (and the label_key feature apart, when given) parsed from the
    tf.train.Example records of the files matching file_pattern (TFRecords unless `reader` says), as TF builds them:
    shuffled and repeated num_epochs times (None: forever, dropping a short last batch)."""
    if label_key is not None and label_key not in features:
        raise ValueError(f"The `label_key` provided ({label_key}) must be one of the `features` keys.")
    reader = reader or TFRecordDataset
    files = Dataset.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    dataset = files.interleave(lambda name: reader(name, *(reader_args or [])), cycle_length=reader_num_threads or 1)
    types = dataset.output_types
    if isinstance(types, tuple) and len(types) == 2:  # a (key, value) reader: the value is the record
        dataset = dataset.map(lambda _, value: value)
    if num_epochs != 1 and shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed).repeat(num_epochs)
    elif shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    elif num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
    dataset = dataset.apply(parse_example_dataset(features, parser_num_threads))
    if label_key is not None:
        dataset = dataset.map(lambda parsed: (parsed, parsed.pop(label_key)))
    return dataset.prefetch(prefetch_buffer_size)
