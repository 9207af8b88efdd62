"""TensorShape and Dimension against TF1's documented behaviour (expected values written out by hand)."""
import pickle

import numpy as np
import pytest

import trainer as tg


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def test_a_shape_is_the_tuple_of_its_dims():
    s = tg.TensorShape([None, 3])
    assert s == (None, 3) and s == [None, 3] and (None, 3) == s and s != (None, 4) and s != (3,)
    assert hash(s) == hash((None, 3)) and {s: 1}[(None, 3)] == 1
    assert len(s) == 2 and s.ndims == s.rank == 2
    assert s.as_list() == [None, 3] and isinstance(s.as_list(), list)
    assert list(s) == [None, 3] and [type(d) for d in s][0] is type(None)
    assert str(s) == "(?, 3)" and repr(s) == "TensorShape([Dimension(None), Dimension(3)])"
    assert tg.TensorShape(5) == (5,) and tg.TensorShape([]) == () and tg.TensorShape([]).ndims == 0


def test_indexing_gives_dimensions_with_value():
    s = tg.TensorShape([4, None, 3])
    assert s[0].value == 4 and int(s[0]) == 4 and s[0] == 4 and s[-1].value == 3
    assert s[1].value is None and s[1] == None and s[1] != 3  # noqa: E711 - unknown compares equal to None
    assert isinstance(s[0], tg.Dimension) and isinstance(s[1], tg.Dimension) and isinstance(s[0], int)
    assert s[1:] == (None, 3) and isinstance(s[1:], tg.TensorShape)
    assert (s[0] * s[2]).value == 12 and (s[0] + 1).value == 5 and (s[1] * 2).value is None
    assert np.zeros(s[0]).shape == (4,) and np.array([s[0], -1]).dtype.kind == "i"
    with pytest.raises(TypeError, match="unknown Dimension"):
        int(s[1])
    with pytest.raises(IndexError):
        s[3]


def test_unknown_rank():
    s = tg.TensorShape(None)
    assert s.ndims is None and s.dims is None and s == tg.TensorShape(None) and s == None  # noqa: E711
    assert not s.is_fully_defined() and s.num_elements() is None and str(s) == "<unknown>"
    with pytest.raises(ValueError, match="as_list\\(\\) is not defined on an unknown TensorShape"):
        s.as_list()
    with pytest.raises(ValueError, match="unknown rank"):
        len(s)
    with pytest.raises(ValueError, match="unknown rank"):
        list(s)
    assert s[0].value is None and s[1:].ndims is None
    assert tg.placeholder(tg.float32).get_shape() == s


def test_compatibility_merging_and_concatenation():
    a, b = tg.TensorShape([None, 3]), tg.TensorShape([2, None])
    assert a.is_compatible_with(b) and a.merge_with(b) == (2, 3)
    assert a.is_compatible_with(tg.TensorShape(None)) and not a.is_compatible_with([None, 4])
    assert not a.is_compatible_with([1, 2, 3])
    with pytest.raises(ValueError, match=r"\(\?, 3\) and \(\?, 4\)"):
        a.merge_with([None, 4])
    with pytest.raises(ValueError, match="incompatible"):
        a.assert_is_compatible_with([3])
    assert a.concatenate([5]) == (None, 3, 5) and a + (5,) == (None, 3, 5) and (7,) + a == (7, None, 3)
    assert a.concatenate(tg.TensorShape(None)).ndims is None
    assert tg.TensorShape([2, 3, 4]).num_elements() == 24 and a.num_elements() is None
    assert tg.TensorShape(None).with_rank(2) == (None, None) and a.with_rank(2) is not None
    with pytest.raises(ValueError, match="must have rank 3"):
        a.with_rank(3)
    assert tg.TensorShape([2, 3]).is_fully_defined() and not a.is_fully_defined()


def test_dims_and_dimension_values():
    s = tg.TensorShape([2, None])
    assert [d.value for d in s.dims] == [2, None]
    assert tg.dimension_value(s[0]) == 2 and tg.dimension_value(s[1]) is None and tg.dimension_value(7) == 7
    assert tg.Dimension(3).merge_with(None).value == 3 and tg.Dimension(None).merge_with(4).value == 4
    with pytest.raises(ValueError, match="not compatible"):
        tg.Dimension(3).merge_with(4)
    with pytest.raises(ValueError, match="-1"):
        tg.Dimension(-1)
    assert pickle.loads(pickle.dumps(s)) == s and pickle.loads(pickle.dumps(s[0])) == 2


def test_bad_dims_name_the_shape():
    with pytest.raises(TypeError, match="'a'"):
        tg.TensorShape(["a", 2])
    with pytest.raises(ValueError, match="2.5"):
        tg.TensorShape([2.5])


def test_tensor_shapes_are_tensor_shapes():
    x = tg.placeholder(tg.float32, [None, 784])
    assert isinstance(x.shape, tg.TensorShape) and x.get_shape() is x.shape
    assert x.get_shape()[1].value == 784 and int(x.shape[-1]) == 784 and x.shape.as_list() == [None, 784]
    assert x.get_shape()[0].value is None
    y = tg.reshape(x, [-1, 28, 28, 1])
    assert y.shape.as_list() == [None, 28, 28, 1]
    w = tg.Variable(tg.zeros([x.shape[1], 10]))
    assert w.get_shape() == (784, 10)


def test_set_shape_refines_and_rejects_conflicts():
    x = tg.placeholder(tg.float32)
    x.set_shape([None, 3])
    assert x.shape == (None, 3)
    x.set_shape([2, None])
    assert x.shape == (2, 3)
    with pytest.raises(ValueError, match=r"'Placeholder:0' has shape \(2, 3\).*\(2, 4\)"):
        x.set_shape([2, 4])
