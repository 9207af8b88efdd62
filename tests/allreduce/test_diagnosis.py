"""The words of failed collectives (allreduce/diagnosis.py), from made-up facts: no MPI needed."""
import numpy as np

from allreduce import CollectiveMismatch, CollectiveTimeout, RankExited
from allreduce.diagnosis import crossed, departed, label, mismatch, timed_out

F32 = np.dtype(np.float32).str


def key(what, shape=(4,), dtype=F32, op="sum"):
    return (what, shape, dtype, op)


def test_label_names_unlabelled_collectives_with_an_article():
    assert label(None, "allreduce") == "an allreduce" and label(None, "barrier") == "a barrier"
    assert label("metric allreduce", "allreduce") == "metric allreduce"


def test_mismatch_groups_ranks_by_collective_smallest_group_first():
    error = mismatch([key("metric"), key("step 3"), key("metric")], rank=2)
    assert isinstance(error, ValueError)
    assert str(error).startswith("Ranks are in different collectives: rank 1 is in step 3 while ranks 0 and 2 are "
                                 "in metric (raised at rank 2)")


def test_mismatch_then_compares_op_dtype_and_shape_in_that_order():
    assert "Op does not match: 'sum' at rank 0 while 'max' at rank 1" in str(
        mismatch([key("a"), key("a", shape=(5,), op="max")], 0))
    assert "Dtype does not match: 'float32' at rank 0 while 'float64' at rank 1" in str(
        mismatch([key("a"), key("a", shape=(5,), dtype=np.dtype(np.float64).str)], 0))
    assert "Shape does not match: (4,) at rank 0 while (5,) at rank 1" in str(mismatch([key("a"), key("a", (5,))], 0))


def test_mismatch_names_a_broadcasts_roots_and_carries_every_ranks_call():
    calls = [key("a", op=0), key("a", op=1)]
    error = mismatch(calls, 1)
    assert isinstance(error, CollectiveMismatch) and error.signatures == calls and error.rank == 1
    assert "Root rank does not match: 0 at rank 0 while 1 at rank 1" in str(error)


def test_timed_out_names_the_silent_ranks_and_what_the_others_said():
    broken, error = timed_out(0, 4, 5.0, (7, "step 3"), {1: (7, "step 3"), 2: (9, "metric")})
    assert isinstance(error, CollectiveTimeout) and error.waiting_for == (3,) and error.what == "step 3"
    assert broken == ("step 3 timed out at rank 0 after 5 s waiting for rank 3 (rank 1 gave up on it too; rank 2 "
                      "gave up waiting in metric (its collective #9, this is #7))")
    _, error = timed_out(0, 2, 5.0, (1, "x"), {1: (1, "x")})
    assert error.waiting_for == () and "different collectives or MPI lost a message" in str(error)


def test_departed_names_who_left_after_what():
    broken, error = departed(0, (4, "step 2"), {1: (3, "step 1")})
    assert isinstance(error, RankExited) and isinstance(error, CollectiveTimeout) and error.waiting_for == (1,)
    assert broken == "step 2 cannot complete at rank 0 (its collective #4): rank 1 ended its program after its " \
                     "collective #3, step 1"
    broken, error = departed(0, (4, "step 2"), {2: (2, "b"), 1: (3, "a")})
    assert "ranks 1 and 2 ended their programs (rank 1 after its collective #3, a; rank 2 after its collective #2, b)" \
        in broken and error.waiting_for == (1, 2)


def test_crossed_names_both_collectives_or_says_the_peer_did_not():
    error = crossed(1, (3, "step 1's gradient allreduce"), 0, [3, "a broadcast"])
    assert str(error).startswith("Ranks are in different collectives: rank 1 is in step 1's gradient allreduce (its "
                                 "collective #3) while rank 0 is in a broadcast (its collective #3) (raised at rank 1)")
    assert [s[0] for s in error.signatures] == ["a broadcast", "step 1's gradient allreduce"] and error.rank == 1
    assert "rank 2 is in another kind of collective" in str(crossed(0, (5, "a broadcast"), 2, None))
