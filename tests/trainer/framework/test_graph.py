"""Graph building: TF1 naming, lookups, shapes, default-graph stack."""
import pytest

import trainer as tg


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def test_op_names_are_uniquified_in_creation_order():
    names = [tg.constant(1.0).op.name for _ in range(3)]
    assert names == ["Const", "Const_1", "Const_2"]
    assert [op.name for op in tg.get_default_graph().get_operations()] == names


def test_name_scopes_nest_and_reopen_with_suffix():
    with tg.name_scope("a"):
        x = tg.constant(1.0, name="x")
        with tg.name_scope("b"):
            y = tg.constant(1.0, name="x")
    with tg.name_scope("a"):
        z = tg.constant(1.0, name="x")
    with tg.name_scope("a/"):
        w = tg.constant(1.0, name="x")
    assert [t.op.name for t in (x, y, z, w)] == ["a/x", "a/b/x", "a_1/x", "a/x_1"]


def test_lookups_by_name_and_object():
    g = tg.get_default_graph()
    x = tg.placeholder(tg.float32, [None, 3], name="x")
    assert g.get_tensor_by_name("x:0") is x
    assert g.get_operation_by_name("x") is x.op
    assert g.as_graph_element("x:0") is x and g.as_graph_element("x") is x.op
    with pytest.raises(KeyError, match="'y:0'.*'y' is not in the graph"):
        g.get_tensor_by_name("y:0")
    with pytest.raises(KeyError, match="has 1 output"):
        g.get_tensor_by_name("x:1")
    with pytest.raises(ValueError, match="looks like a Tensor name"):
        g.get_operation_by_name("x:0")
    with pytest.raises(ValueError, match="not a Tensor name"):
        g.get_tensor_by_name("x")


def test_static_shapes_with_unknown_dims():
    x = tg.placeholder(tg.float32, [None, 3])
    w = tg.Variable(tg.zeros_initializer()([3, 4], tg.float32))
    y = tg.matmul(x, w)
    assert x.shape == (None, 3) and w.shape == (3, 4) and y.shape == (None, 4)
    assert str(y) == 'Tensor("MatMul:0", shape=(?, 4), dtype=float32)'  # TF1 prints unknown dims as "?"
    assert repr(y) == "<tf.Tensor 'MatMul:0' shape=(?, 4) dtype=float32>"
    assert str(tg.placeholder(tg.float32, name="any")) == 'Tensor("any:0", dtype=float32)'  # unknown rank: no shape
    assert str(w) == repr(w) == "<tf.Variable 'Variable:0' shape=(3, 4) dtype=float32_ref>"
    assert (x + 1.0).shape == (None, 3)
    assert tg.placeholder("float").shape.ndims is None  # TF1: TensorShape(None), unknown rank
    with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 3 and 5"):
        tg.matmul(x, tg.zeros_initializer()([5, 2], tg.float32))


def test_mixing_dtypes_needs_a_cast():
    with pytest.raises(TypeError, match=r"'a:0' \(float32\), 'b:0' \(float64\)"):
        tg.constant(1.0, name="a") + tg.constant(1.0, dtype=tg.float64, name="b")


def test_python_constants_follow_tf1_dtypes():
    assert tg.constant(1.0).dtype == tg.float32
    assert tg.constant(1).dtype == tg.int32
    assert tg.constant(__import__("numpy").zeros(2)).dtype == tg.float64
    assert tg.placeholder("float").dtype == tg.float32


def test_tensors_from_another_graph_are_refused():
    other = tg.Graph()
    with other.as_default():
        a = tg.constant(1.0, name="a")
    b = tg.constant(2.0)
    with pytest.raises(ValueError, match="'a:0' is from another graph"):
        tg.add(b, a)


def test_default_graph_stack():
    outer = tg.get_default_graph()
    g = tg.Graph()
    with g.as_default():
        assert tg.get_default_graph() is g
        with pytest.raises(AssertionError):
            tg.reset_default_graph()
    assert tg.get_default_graph() is outer
    tg.reset_default_graph()
    assert tg.get_default_graph() is not outer


def test_tensor_has_no_truth_value():
    with pytest.raises(TypeError, match="as a Python bool"):
        bool(tg.constant(1.0))


def test_schedule_after_runs_an_op_as_soon_as_its_producers_have():
    def run(hint):
        with tg.Graph().as_default():
            v = tg.Variable(0.0)
            first = tg.identity(tg.constant(1.0), name="first")
            with tg.control_dependencies([first]):
                bumps = [v.assign_add(first) for _ in range(3)]
                seen = v * first  # created last: by creation order it reads v after the three bumps
            if hint:
                seen.op.schedule_after([first.op])
            with tg.Session() as sess:
                sess.run(v.initializer)
                return sess.run([bumps, seen])[1]
    assert run(hint=False) == 3.0 and run(hint=True) == 0.0
    with pytest.raises(ValueError, match="order must be in"):
        tg.no_op().schedule_after([], order=1)


def test_version_grows_as_operations_are_added():
    graph = tg.Graph()
    before = graph.version
    with graph.as_default():
        tg.constant(1.0)
    after = graph.version
    assert after > before
    graph.add_to_collection("anything", 1)
    assert graph.version == after  # collections are not operations
