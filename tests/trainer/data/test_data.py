import numpy as np
import pytest

from trainer.data import Pipeline, eval_batches, shard_bounds, steps_for_epochs


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("batch", [0, 1, 3, 4, 7, 64])
def test_shards_tile_the_batch_evenly(batch, size):
    bounds = [shard_bounds(batch, size, r) for r in range(size)]
    assert bounds[0][0] == 0 and bounds[-1][1] == batch
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))
    lengths = [hi - lo for lo, hi in bounds]
    assert max(lengths) - min(lengths) <= 1 and sorted(lengths, reverse=True) == lengths


def test_rank_outside_world_is_refused():
    with pytest.raises(ValueError, match="rank 3"):
        shard_bounds(8, 3, 3)


def stream(pipeline, steps):
    return [pipeline.next_batch()[0] for _ in range(steps)]


@pytest.mark.parametrize("n,batch", [(10, 3), (10, 10), (7, 16), (100, 32)])
def test_every_epoch_is_a_permutation(n, batch):
    p = Pipeline((np.arange(n),), batch, seed=5)
    seen = np.concatenate(stream(p, steps_for_epochs(3, n, batch)))
    for e in range(3):
        assert sorted(seen[e * n:(e + 1) * n]) == list(range(n))


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_rank_shards_concatenate_to_the_one_process_batch(size):
    x = np.arange(50) * 10
    whole = stream(Pipeline((x,), 12, seed=3), 9)
    parts = [stream(Pipeline((x,), 12, rank=r, size=size, seed=3), 9) for r in range(size)]
    for step in range(9):
        np.testing.assert_array_equal(np.concatenate([p[step] for p in parts]), whole[step])


def test_features_and_labels_stay_paired():
    x = np.arange(30)
    bx, by = Pipeline((x, -x), 8, seed=1).next_batch()
    np.testing.assert_array_equal(by, -bx)


def test_seed_changes_the_order_and_shuffle_off_keeps_it():
    x = np.arange(40)
    a, b = stream(Pipeline((x,), 40, seed=0), 1), stream(Pipeline((x,), 40, seed=1), 1)
    assert not np.array_equal(a[0], b[0])
    np.testing.assert_array_equal(stream(Pipeline((x,), 40, shuffle=False), 1)[0], x)


def test_resumed_pipeline_continues_exactly():
    x = np.arange(23)
    full = Pipeline((x,), 5, rank=1, size=2, seed=9)
    expected = stream(full, 12)
    first = Pipeline((x,), 5, rank=1, size=2, seed=9)
    head = stream(first, 7)
    state = first.state()
    resumed = Pipeline((x,), 5, rank=1, size=2, seed=0)
    resumed.restore(state)
    for got, want in zip(head + stream(resumed, 5), expected):
        np.testing.assert_array_equal(got, want)


def test_restore_on_other_data_is_refused():
    state = Pipeline((np.arange(10),), 2).state()
    with pytest.raises(ValueError, match="10"):
        Pipeline((np.arange(11),), 2).restore(state)


@pytest.mark.parametrize("arrays,match", [((np.arange(3), np.arange(4)), "lengths"), ((np.arange(0),), "empty")])
def test_bad_arrays(arrays, match):
    with pytest.raises(ValueError, match=match):
        Pipeline(arrays, 2)


def test_bad_batch_and_seed():
    with pytest.raises(ValueError, match="batch size 0"):
        Pipeline((np.arange(3),), 0)
    with pytest.raises(ValueError, match="seed -1"):
        Pipeline((np.arange(3),), 1, seed=-1)


@pytest.mark.parametrize("size", [1, 2, 3, 7])
def test_eval_batches_cover_the_data_once(size):
    x = np.arange(13)
    got = [b for r in range(size) for (b,) in eval_batches((x,), 4, r, size)]
    np.testing.assert_array_equal(np.concatenate(got), x)
    assert max(len(b) for b in got) <= 4


def test_steps_for_epochs():
    assert steps_for_epochs(1, 100, 32) == 4
    assert steps_for_epochs(2.5, 10, 5) == 5
