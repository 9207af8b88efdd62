"""tf.debugging.assert_shapes: what the static shapes decide fails while building (ValueError), the rest when the
returned op runs (InvalidArgumentError), each naming the tensor, the dimension and where its size was set."""
import numpy as np
import pytest

import trainer as tg


def test_static_shapes_are_checked_while_building():
    with tg.Graph().as_default():
        x, y, z = tg.zeros([2, 3], name="x"), tg.zeros([3], name="y"), tg.zeros([2, 3, 4], name="z")
        assert tg.debugging.assert_shapes({x: ("N", "D"), y: ("D",)}).type == "NoOp"
        tg.debugging.assert_shapes([(z, ("*", "D", 4)), (x, (None, "D")), (tg.zeros([]), ["N"])])
        tg.debugging.assert_shapes([(z, (Ellipsis, 4))])
        with pytest.raises(ValueError, match=r"Specified by tensor x:0 dimension 0\.  Tensor y:0 dimension 0 must "
                                             r"have size 2\.  Received size 3, shape \(3,\)"):
            tg.debugging.assert_shapes([(x, ("D", "N")), (y, ("D",))])
        with pytest.raises(ValueError, match=r"mine\.  Specified explicitly\.  Tensor x:0 dimension 1 must have "
                                             r"size 4\.  Received size 3, shape \(2, 3\)"):
            tg.debugging.assert_shapes([(x, (2, 4))], message="mine")
        with pytest.raises(ValueError, match="must have rank"):
            tg.debugging.assert_shapes([(z, ("...", 4))])  # the string "..." is a name, not any leading dims
        with pytest.raises(ValueError, match="only allowed as the first entry"):
            tg.debugging.assert_shapes([(x, ("N", "*"))])
        with pytest.raises(ValueError, match="Specified shape must be an iterable"):
            tg.debugging.assert_shapes([(x, 3)])


def test_unknown_sizes_are_checked_when_the_op_runs():
    with tg.Graph().as_default():
        p, q, u = tg.placeholder(tg.float32, [None, None]), tg.placeholder(tg.float32, [None]), tg.placeholder(
            tg.float32)
        same = tg.debugging.assert_shapes([(p, ("N", "D")), (q, ("D",))], message="mine")
        two = tg.debugging.assert_shapes([(u, ("N", 2))])
        with tg.Session() as sess:
            sess.run(same, {p: np.zeros((2, 3)), q: np.zeros(3)})
            sess.run(two, {u: np.zeros((5, 2))})
            with pytest.raises(tg.errors.InvalidArgumentError, match=r"\[mine\.  \] \[Specified by tensor "
                                                                     r"Placeholder:0 dimension 1\]"):
                sess.run(same, {p: np.zeros((2, 3)), q: np.zeros(4)})
            with pytest.raises(tg.errors.InvalidArgumentError, match="Specified explicitly"):
                sess.run(two, {u: np.zeros((5, 3))})
            with pytest.raises(tg.errors.InvalidArgumentError):
                sess.run(two, {u: np.zeros(5)})  # rank 1, where the specification has 2
