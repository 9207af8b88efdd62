"""tf.sets on dense and sparse batches of sets against Python's sets (TF's answers: conformance family "strings")."""
import numpy as np

import trainer as tg
from tests.trainer.op_oracle import fresh_graph, run_initialized  # noqa: F401 (fresh_graph: autouse)

RNG = np.random.default_rng(5)


def as_rows(value, batch):
    rows = {index: [] for index in np.ndindex(*batch)}
    for index, v in zip(value.indices.tolist(), value.values.tolist()):
        rows[tuple(index[:-1])].append(v)
    return rows


def test_every_operation_matches_python_sets_row_by_row():
    a, b = RNG.integers(0, 6, (3, 2, 4)), RNG.integers(0, 6, (3, 2, 5))
    expected = {"intersection": set.intersection, "union": set.union, "difference": set.difference}
    for name, op in expected.items():
        got = run_initialized(getattr(tg.sets, name)(a, b))
        assert got.dense_shape[:-1].tolist() == [3, 2]
        for index, members in as_rows(got, (3, 2)).items():
            assert members == sorted(op(set(a[index].tolist()), set(b[index].tolist()))), (name, index)
    got = run_initialized(tg.sets.set_difference(a, b, aminusb=False))
    assert as_rows(got, (3, 2))[(0, 0)] == sorted(set(b[0, 0].tolist()) - set(a[0, 0].tolist()))


def test_sparse_sets_and_their_sizes():
    sp = tg.SparseTensor([[0, 0], [0, 1], [2, 0]], tg.constant([7, 7, 3], tg.int64), [3, 2])
    assert run_initialized(tg.sets.size(sp)).tolist() == [1, 0, 1]
    both = run_initialized(tg.sets.union(sp, tg.constant(np.array([[1], [2], [3]], np.int64))))
    assert as_rows(both, (3,)) == {(0,): [1, 7], (1,): [2], (2,): [3]}
