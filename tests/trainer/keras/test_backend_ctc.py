"""Keras' CTC backend functions against tf.keras' recorded values (fixtures/keras_ctc.json, recorded by
fixtures/record_keras_ctc.py): the sparse labels, the batch cost and its gradient, greedy decoding."""
import json
import pathlib

import numpy as np
import pytest

import trainer as tg

K = tg.keras.backend
REC = json.loads((pathlib.Path(__file__).parent / "fixtures" / "keras_ctc.json").read_text())


def test_ctc_functions_match_tf_keras():
    with tg.Graph().as_default(), tg.Session() as sess:
        y_pred = tg.constant(np.array(REC["y_pred"], np.float32))
        labels, label_length = np.array(REC["labels"]), np.array(REC["label_length"])
        input_length = np.array(REC["input_length"])
        sparse = K.ctc_label_dense_to_sparse(tg.constant(labels, tg.int32), tg.constant(label_length[:, 0], tg.int32))
        cost = K.ctc_batch_cost(tg.constant(labels), y_pred, tg.constant(input_length), tg.constant(label_length))
        (decoded,), log_prob = K.ctc_decode(y_pred, tg.constant(input_length[:, 0]))
        grad = tg.gradients(tg.reduce_sum(cost), y_pred)[0]
        s, c, d, p, g = sess.run([sparse, cost, decoded, log_prob, grad])
    assert (s.indices.tolist(), s.values.tolist(), s.dense_shape.tolist()) == (
        REC["sparse"]["indices"], REC["sparse"]["values"], REC["sparse"]["dense_shape"])
    np.testing.assert_allclose(c, REC["cost"], rtol=1e-5)
    assert d.tolist() == REC["decoded"]
    np.testing.assert_allclose(p, REC["log_prob"], rtol=1e-5)
    np.testing.assert_allclose(g, REC["grad"], rtol=1e-4, atol=1e-6)


def test_beam_search_decoding_says_what_to_use():
    with tg.Graph().as_default(), pytest.raises(NotImplementedError, match="greedy=True"):
        K.ctc_decode(tg.ones([1, 3, 4]), tg.constant([3]), greedy=False)
