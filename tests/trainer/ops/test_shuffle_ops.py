"""random_shuffle: a seeded permutation of the rows."""
import numpy as np
import pytest

import trainer as tg

RNG = np.random.default_rng(7)


@pytest.fixture(autouse=True)
def fresh_graph():
    with tg.Graph().as_default() as graph:
        yield graph


def test_random_shuffle_permutes_rows_and_is_seeded():
    def draws(seed):
        with tg.Graph().as_default():
            tg.set_random_seed(seed)
            op = tg.random.shuffle(tg.constant(np.arange(20).reshape(10, 2)))
            with tg.Session() as sess:
                return [sess.run(op) for _ in range(2)]
    a, b = draws(1), draws(1)
    np.testing.assert_array_equal(a[0], b[0])
    assert not np.array_equal(a[0], a[1])
    assert sorted(a[0][:, 0]) == list(range(0, 20, 2)) and np.all(a[0][:, 1] == a[0][:, 0] + 1)
