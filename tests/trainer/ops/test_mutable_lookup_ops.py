"""tf.lookup.experimental's mutable tables: filled, changed and read while the graph runs, one table per session."""
import numpy as np
import pytest

import trainer as tg


def test_a_mutable_table_is_filled_changed_and_exported_while_running():
    with tg.Graph().as_default():
        table = tg.lookup.experimental.MutableHashTable(tg.string, tg.int64, -1)
        insert = table.insert(["a", "b"], np.array([1, 2], np.int64))
        found, size = table.lookup([["a", "c"], ["b", "a"]]), table.size()
        assert found.shape == (2, 2) and found.dtype == tg.int64 and size.dtype == tg.int64
        with tg.Session() as sess, tg.Session() as other:
            assert sess.run(size) == 0 and sess.run(found).tolist() == [[-1, -1], [-1, -1]]
            sess.run(insert)
            assert sess.run(found).tolist() == [[1, -1], [2, 1]] and sess.run(size) == 2
            keys, values = sess.run(table.export())
            assert sorted(zip(keys.tolist(), values.tolist())) == [(b"a", 1), (b"b", 2)]
            sess.run(table.remove(["a", "zzz"]))
            assert sess.run(found).tolist() == [[-1, -1], [2, -1]] and sess.run(size) == 1
            assert other.run(size) == 0  # each session keeps its own contents
            with pytest.raises(tg.errors.InvalidArgumentError, match="Expected shape"):
                sess.run(table.insert(["x", "y"], np.array([1], np.int64)))


def test_a_dense_table_refuses_its_reserved_keys():
    with tg.Graph().as_default():
        table = tg.lookup.experimental.DenseHashTable(tg.int64, tg.float32, 0.5, empty_key=-1, deleted_key=-2)
        with tg.Session() as sess:
            sess.run(table.insert(np.array([3, 4], np.int64), [1.0, 2.0]))
            assert sess.run(table.lookup(np.array([3, 5], np.int64))).tolist() == [1.0, 0.5]
            for key in (-1, -2):
                with pytest.raises(tg.errors.InvalidArgumentError, match="as a table key is not allowed"):
                    sess.run(table.insert(np.array([key], np.int64), [1.0]))
        same = tg.lookup.experimental.DenseHashTable(tg.int64, tg.float32, 0.5, empty_key=0, deleted_key=0)
        with tg.Session() as sess, pytest.raises(tg.errors.InvalidArgumentError, match="must differ"):
            sess.run(same.size())
        with pytest.raises(NotImplementedError, match="export"):
            table.export()
        with pytest.raises(ValueError, match="requested dtype int64 for Tensor with dtype string"):
            table.lookup(tg.constant(["a"]))
        with pytest.raises(NotImplementedError, match="MutableHashTableOfTensors"):
            tg.lookup.experimental.MutableHashTable(tg.int64, tg.float32, [0.0, 0.0])
