"""tf.feature_column's sparse-id columns (vocabulary files, weighted ids, shared embeddings, SparseTensor features)
and the sequence columns through tf.keras.experimental.SequenceFeatures: each case builds its columns on one
features dict in the module it is given and compares what input_layer, linear_model or the layer gives."""
import os
import tempfile

from .cases import call

ROWS = [[0, 0], [0, 1], [1, 0], [2, 0], [2, 1], [2, 2]]  # three sequences of lengths 2, 1 and 3
TABLE = [[0., 1.], [2., 3.], [4., 5.], [6., 7.], [8., 9.]]


def vocabulary_file(words):
    """A vocabulary file of `words`, one a line, at a path that depends only on them."""
    path = os.path.join(tempfile.gettempdir(), f"ringflow_fc2_vocab_{'_'.join(words)}.txt")
    with open(path, "w") as file:
        file.write("".join(f"{w}\n" for w in words))
    return path


def features(tf):
    return {"ids": tf.SparseTensor(ROWS, tf.constant([1, 2, 0, 3, 1, 2], tf.int64), [3, 3]),
            "w": tf.SparseTensor(ROWS, tf.constant([1., 2., 3., 4., 5., 6.]), [3, 3]),
            "x": tf.SparseTensor(ROWS, tf.constant([1., 2., 3., 4., 5., 6.]), [3, 3]),
            "x5": tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [2, 0]],
                                  tf.constant([1., 2., 3., 4., 5., 6.]), [3, 4]),
            "s": tf.SparseTensor(ROWS, tf.constant(["a", "z", "c", "q", "b", "a"]), [3, 3]),
            "j": tf.constant([[0], [1], [3]], tf.int64),
            "n": tf.constant([[7, 1], [8, 9], [-1, 7]], tf.int64),
            "age": tf.constant([[18.], [40.], [65.]]),
            "color": tf.constant([["red"], ["blue"], ["green"]])}


def table(tf):
    return tf.constant_initializer(TABLE)


def input_layer(make):
    return call("identity", {"build": lambda tf: tf.feature_column.input_layer(features(tf), make(tf))})


def linear(make, combiner):
    def build(tf):
        return tf.feature_column.linear_model(features(tf), make(tf), sparse_combiner=combiner)
    return call("identity", {"build": build})


def sequence(make, part):
    def build(tf):
        return tf.keras.experimental.SequenceFeatures(make(tf))(features(tf))[part]
    return call("identity", {"build": build})


def weighted(tf):
    return tf.feature_column.weighted_categorical_column(
        tf.feature_column.categorical_column_with_identity("ids", 5), "w")


def vocab_file(tf, **kwargs):
    return tf.feature_column.categorical_column_with_vocabulary_file("s", vocabulary_file(["a", "b", "c"]), **kwargs)


def seq_ids(tf):
    return tf.feature_column.sequence_categorical_column_with_identity("ids", 5)


def cases():
    fc = lambda tf: tf.feature_column  # noqa: E731
    found = {
        "fc2/sparse/identity_indicator": input_layer(lambda tf: [fc(tf).indicator_column(
            fc(tf).categorical_column_with_identity("ids", 5))]),
        "fc2/weighted/indicator": input_layer(lambda tf: [fc(tf).indicator_column(weighted(tf))]),
        "fc2/vocabulary_file/oov_buckets": input_layer(lambda tf: [fc(tf).indicator_column(
            vocab_file(tf, num_oov_buckets=3))]),
        "fc2/vocabulary_list/oov_buckets": input_layer(lambda tf: [fc(tf).indicator_column(
            fc(tf).categorical_column_with_vocabulary_list("s", ["a", "b", "c"], num_oov_buckets=3))]),
        "fc2/vocabulary_list/int_oov_buckets": input_layer(lambda tf: [fc(tf).indicator_column(
            fc(tf).categorical_column_with_vocabulary_list("n", [7, 8], num_oov_buckets=2))]),
        "fc2/vocabulary_file/default_value": input_layer(lambda tf: [fc(tf).indicator_column(
            vocab_file(tf, default_value=1))]),
        "fc2/vocabulary_file/size": input_layer(lambda tf: [fc(tf).indicator_column(
            vocab_file(tf, vocabulary_size=2))]),
        "fc2/vocabulary_file/int": input_layer(lambda tf: [fc(tf).indicator_column(
            fc(tf).categorical_column_with_vocabulary_file("n", vocabulary_file(["7", "8"]), dtype=tf.int64,
                                                            num_oov_buckets=2))]),
        "fc2/shared_embedding/two": input_layer(lambda tf: fc(tf).shared_embedding_columns(
            [fc(tf).categorical_column_with_identity("ids", 5), fc(tf).categorical_column_with_identity("j", 5)],
            2, initializer=table(tf))),
        "fc2/shared_embedding/named_with_plain": input_layer(lambda tf: fc(tf).shared_embedding_columns(
            [fc(tf).categorical_column_with_identity("j", 5), weighted(tf)], 2, combiner="sum",
            initializer=table(tf), shared_embedding_collection_name="shared") + [
            fc(tf).embedding_column(fc(tf).categorical_column_with_identity("ids", 5), 2, initializer=table(tf))]),
        "fc2/sequence/identity_lengths": sequence(lambda tf: [fc(tf).indicator_column(seq_ids(tf))], 1),
        "fc2/sequence/mixed": sequence(lambda tf: [
            fc(tf).indicator_column(seq_ids(tf)), fc(tf).sequence_numeric_column("x"),
            fc(tf).embedding_column(seq_ids(tf), 2, initializer=table(tf))], 0),
        "fc2/sequence/numeric_shape2": sequence(lambda tf: [fc(tf).sequence_numeric_column(
            "x5", shape=(2,), default_value=-1.)], 0),
        "fc2/sequence/numeric_shape2_lengths": sequence(lambda tf: [fc(tf).sequence_numeric_column(
            "x5", shape=(2,))], 1),
        "fc2/sequence/same_name_refused": sequence(lambda tf: [
            fc(tf).indicator_column(fc(tf).sequence_categorical_column_with_vocabulary_list("s", ["a", "b", "c"])),
            fc(tf).indicator_column(fc(tf).sequence_categorical_column_with_hash_bucket("s", 4))], 0),
        "fc2/sequence/vocabulary_list": sequence(lambda tf: [fc(tf).indicator_column(
            fc(tf).sequence_categorical_column_with_vocabulary_list("s", ["a", "b", "c"]))], 0),
        "fc2/sequence/hash_bucket": sequence(lambda tf: [fc(tf).indicator_column(
            fc(tf).sequence_categorical_column_with_hash_bucket("s", 4))], 0),
        "fc2/sequence/embedding_in_input_layer_refused": input_layer(lambda tf: [fc(tf).embedding_column(
            seq_ids(tf), 2)]),
        "fc2/sequence/vocabulary_file": sequence(lambda tf: [fc(tf).embedding_column(
            fc(tf).sequence_categorical_column_with_vocabulary_file("s", vocabulary_file(["a", "b", "c"]),
                                                                     num_oov_buckets=2), 2, initializer=table(tf))], 0),
    }
    cross = lambda tf, keys, **kw: fc(tf).indicator_column(fc(tf).crossed_column(keys, 7, **kw))  # noqa: E731
    age = lambda tf: fc(tf).bucketized_column(fc(tf).numeric_column("age"), [30., 50.])  # noqa: E731
    found.update({
        "fc2/crossed/two_string_features": input_layer(lambda tf: [cross(tf, ["s", "color"])]),
        "fc2/crossed/string_and_bucketized": input_layer(lambda tf: [cross(tf, [age(tf), "color"])]),
        "fc2/crossed/int_feature_and_identity": input_layer(lambda tf: [cross(tf, [
            "n", fc(tf).categorical_column_with_identity("j", 5)])]),
        "fc2/crossed/nested_with_hash_key": input_layer(lambda tf: [cross(tf, [
            fc(tf).crossed_column(["color", age(tf)], 3), "s"], hash_key=12345)]),
        "fc2/crossed/vocabulary_list_embedding": input_layer(lambda tf: [fc(tf).embedding_column(
            fc(tf).crossed_column([fc(tf).categorical_column_with_vocabulary_list("color", ["red", "blue"]), "n"], 5),
            2, combiner="sum", initializer=table(tf))]),
        "fc2/crossed/linear": linear(lambda tf: [fc(tf).crossed_column(["s", "color"], 7)], "sum"),
    })
    for combiner in ("mean", "sqrtn", "sum"):
        found[f"fc2/weighted/embedding_{combiner}"] = input_layer(lambda tf, c=combiner: [fc(tf).embedding_column(
            weighted(tf), 2, combiner=c, initializer=table(tf))])
        found[f"fc2/weighted/linear_{combiner}"] = linear(lambda tf: [weighted(tf)], combiner)
    return found
