"""tf.sparse.merge: each row's ids become column indices of a [rows, vocab_size] SparseTensor holding the values."""
import numpy as np

import trainer as tg


def test_ids_become_columns_and_entries_come_out_sorted():
    tg.reset_default_graph()
    indices = [[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]]
    ids = tg.SparseTensor(indices, tg.constant([4, 1, 0, 3, 2], tg.int64), [3, 2])
    values = tg.SparseTensor(indices, [0.5, 1.5, 2.5, 3.5, 4.5], [3, 2])
    with tg.Session() as sess:
        dense = sess.run(tg.sparse.to_dense(tg.sparse.merge(ids, values, 5), validate_indices=True))
        merged = sess.run(tg.sparse_merge(ids, values, 5))
    want = np.zeros((3, 5))
    want[0, 4], want[0, 1], want[1, 0], want[2, 3], want[2, 2] = 0.5, 1.5, 2.5, 3.5, 4.5
    np.testing.assert_array_equal(dense, want)
    np.testing.assert_array_equal(merged.indices, [[0, 1], [0, 4], [1, 0], [2, 2], [2, 3]])
    np.testing.assert_array_equal(merged.values, [1.5, 0.5, 2.5, 4.5, 3.5])
    np.testing.assert_array_equal(merged.dense_shape, [3, 5])
