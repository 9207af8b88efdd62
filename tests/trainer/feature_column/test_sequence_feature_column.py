"""tf.contrib.feature_column's sequence_input_layer gives what tf.keras.experimental.SequenceFeatures gives (whose
values the fc2 conformance family checks against TF) under its own scope; sequence lengths must agree across columns;
SequenceFeatures keeps its columns in its config and feeds a Keras model."""
import numpy as np
import pytest

import trainer as tg

fc = tg.feature_column
ROWS = [[0, 0], [0, 1], [1, 0], [2, 0], [2, 1], [2, 2]]


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def run(fetches):
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetches)


def features():
    return {"ids": tg.SparseTensor(ROWS, np.array([1, 2, 0, 3, 1, 2], np.int64), [3, 3]),
            "x": tg.SparseTensor(ROWS, np.arange(1., 7., dtype=np.float32), [3, 3])}


def columns():
    ids = fc.sequence_categorical_column_with_identity("ids", 4)
    return [fc.sequence_numeric_column("x"),
            fc.embedding_column(ids, 2, initializer=tg.constant_initializer(np.arange(8.).reshape(4, 2)))]


def test_sequence_input_layer_is_sequence_features_in_its_own_scope():
    net, lengths = tg.contrib.feature_column.sequence_input_layer(features(), columns())
    layer_net, layer_lengths = tg.keras.experimental.SequenceFeatures(columns())(features())
    assert [v.name for v in tg.global_variables()] == ["sequence_input_layer/ids_embedding/embedding_weights:0",
                                                       "sequence_features/ids_embedding/embedding_weights:0"]
    got = run([net, lengths, layer_net, layer_lengths])
    assert np.array_equal(got[0], got[2]) and np.array_equal(got[1], got[3])
    assert got[1].tolist() == [2, 1, 3] and got[1].dtype == np.int64
    # row 1 has one step: the embedding of id 0, then x = 3; its padding steps are zeros
    assert np.array_equal(got[0][1], [[0., 1., 3.], [0., 0., 0.], [0., 0., 0.]])


def test_columns_of_different_lengths_fail_the_run():
    short = tg.SparseTensor([[0, 0], [1, 0], [2, 0]], np.array([1., 2., 3.], np.float32), [3, 3])
    net, _ = tg.contrib.feature_column.sequence_input_layer(dict(features(), x=short), columns())
    with pytest.raises(tg.errors.InvalidArgumentError, match="sequence lengths of 'ids_embedding' and 'x' differ"):
        run(net)


def test_non_sequence_columns_are_refused_both_ways():
    with pytest.raises(ValueError, match="must be sequence dense columns"):
        tg.keras.experimental.SequenceFeatures([fc.numeric_column("x")])
    with pytest.raises(ValueError, match="must not be of type SequenceCategoricalColumn"):
        fc.input_layer(features(), [fc.indicator_column(fc.sequence_categorical_column_with_identity("ids", 4))])
    with pytest.raises(ValueError, match="In linear_model: categorical_column 'ids' must not be of type"):
        fc.linear_model(features(), [fc.sequence_categorical_column_with_identity("ids", 4)])


def test_sequence_features_config_round_trips_and_feeds_an_rnn():
    layer = tg.keras.experimental.SequenceFeatures([fc.sequence_numeric_column("x"), fc.indicator_column(
        fc.sequence_categorical_column_with_vocabulary_list("w", ["a", "b"]))])
    again = tg.keras.experimental.SequenceFeatures.from_config(layer.get_config())
    assert again.get_config()["feature_columns"] == layer.get_config()["feature_columns"]
    assert [c["class_name"] for c in layer.get_config()["feature_columns"]] == ["IndicatorColumn",
                                                                               "SequenceNumericColumn"]
    words = tg.SparseTensor(ROWS, np.array([b"a", b"b", b"b", b"a", b"z", b"b"]), [3, 3])
    net, lengths = again({"x": features()["x"], "w": words})
    outputs = tg.keras.layers.SimpleRNN(2, kernel_initializer="ones", recurrent_initializer="zeros")(
        net, mask=tg.sequence_mask(lengths, 3))
    assert net.shape.as_list()[-1] == 3
    values, got = run([net, outputs])
    assert np.array_equal(values[2], [[1., 0., 4.], [0., 0., 5.], [0., 1., 6.]])
    assert got.shape == (3, 2)


def test_a_step_of_several_values_counts_a_partial_step():
    x = tg.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [2, 0]], np.arange(1., 7., dtype=np.float32), [3, 4])
    net, lengths = tg.keras.experimental.SequenceFeatures([fc.sequence_numeric_column("x", shape=(2,))])({"x": x})
    values, lengths = run([net, lengths])
    assert lengths.tolist() == [2, 1, 1]  # three values make two steps of two (TF rounds up)
    assert np.array_equal(values[0], [[1., 2.], [3., 0.]])
