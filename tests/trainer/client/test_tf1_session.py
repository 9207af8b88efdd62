"""TF1 program-level semantics of the engine: sessions, default graphs, strings, devices, variables, scopes.

Expected values are TF1 1.15's documented behaviour, written out by hand or computed with numpy.
"""
import numpy as np
import pytest

import trainer as tg


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()
    yield
    while tg.get_default_session() is not None:  # an InteractiveSession a failed test left open
        tg.get_default_session().close()


# --- sessions and default graphs ----------------------------------------------------------------------
def test_session_block_makes_its_graph_the_default():
    g = tg.Graph()
    with g.as_default():
        v = tg.Variable(1.0, name="v")
    assert tg.get_default_graph() is not g
    with tg.Session(graph=g) as sess:
        assert tg.get_default_graph() is g and tg.get_default_session() is sess
        sess.run(v.initializer)
        sess.run(v.assign(5.0))
        assert tg.constant(1.0).graph is g
        assert v.eval() == 5.0
    assert tg.get_default_graph() is not g and tg.get_default_session() is None


def test_as_default_keeps_the_default_graph_as_tf1():
    g = tg.Graph()
    with g.as_default():
        v = tg.Variable(2.0)
    sess = tg.Session(graph=g)
    with sess.as_default():
        assert tg.get_default_session() is sess and tg.get_default_graph() is not g
        sess.run(v.initializer)
        sess.run(v.assign_add(3.0))  # built in v's graph, as TF1 builds ops in their inputs' graph
        assert v.eval() == 5.0
    assert tg.get_default_session() is None


def test_session_arguments_in_tf1_order():
    g = tg.Graph()
    with g.as_default():
        x = tg.constant(3.0)
    sess = tg.Session("", g, None)
    assert sess.graph is g and sess.target == "" and sess.sess_str == ""
    assert tg.Session(g).graph is g  # the engine's older positional use
    assert tg.Session("grpc://localhost:2222", graph=g).target == "grpc://localhost:2222"
    assert sess.run(x, options=object(), run_metadata=object()) == 3.0
    with pytest.raises(TypeError, match="target string.*42"):
        tg.Session(42)
    with pytest.raises(NotImplementedError, match="partial_run"):
        sess.partial_run(None, x)
    with g.as_default():
        y = x * 2.0
    f = sess.make_callable(y)
    assert f() == 6.0


def test_interactive_session_is_default_until_closed():
    x = tg.placeholder(tg.float32, shape=[2])
    y = x * 3.0
    sess = tg.InteractiveSession()
    assert tg.get_default_session() is sess
    np.testing.assert_array_equal(y.eval(feed_dict={x: [1.0, 2.0]}), [3.0, 6.0])
    sess.close()
    assert tg.get_default_session() is None
    with pytest.raises(ValueError, match="no default session"):
        y.eval(feed_dict={x: [1.0, 2.0]})


def test_interactive_sessions_may_close_out_of_order():
    a, b = tg.InteractiveSession(), tg.InteractiveSession()
    a.close()
    assert tg.get_default_session() is b
    b.close()
    assert tg.get_default_session() is None


# --- placeholders and strings ---------------------------------------------------------------------------
def test_placeholder_shapes_and_defaults():
    assert tg.placeholder(tg.float32, shape=100).shape == (100,)
    assert tg.placeholder(tg.float32, shape=[None, -1]).shape == (None, None)
    d = tg.constant([1.0, 2.0])
    p = tg.placeholder_with_default(d, shape=[None], name="p")
    assert p.op.name == "p" and p.shape == (None,)
    out = p * 10.0
    with tg.Session() as sess:
        np.testing.assert_array_equal(sess.run(out), [10.0, 20.0])
        np.testing.assert_array_equal(sess.run(out, {p: [3.0, 4.0, 5.0]}), [30.0, 40.0, 50.0])
    (grad,) = tg.gradients(tg.reduce_sum(p * p), [d])
    with tg.Session() as sess:
        np.testing.assert_array_equal(sess.run(grad), [2.0, 4.0])
    with pytest.raises(ValueError, match=r"'Const_\d+:0' has shape \(2,\).*\(3,\)"):
        tg.placeholder_with_default(tg.constant([1.0, 2.0]), shape=[3])


def test_string_constants_and_feeds():
    s = tg.constant("abc")
    v = tg.constant([b"a", b"b"])
    p = tg.placeholder(tg.string, shape=[None])
    assert s.dtype == tg.string and v.dtype == tg.string and v.shape == (2,)
    with tg.Session() as sess:
        out = sess.run(s)
        assert out == b"abc" and type(out) is bytes
        arr = sess.run(v)
        assert arr.dtype == object and arr.tolist() == [b"a", b"b"]
        assert sess.run(p, {p: ["x", b"y"]}).tolist() == [b"x", b"y"]


# --- devices ----------------------------------------------------------------------------------------------
def test_device_scopes_record_and_merge_like_tf1():
    a = tg.constant(1.0)
    with tg.device("/job:worker/task:1"):
        b = tg.constant(1.0)
        with tg.device("/gpu:0"):
            c = tg.constant(1.0)
            with tg.device(None):
                d = tg.constant(1.0)
        with tg.device(lambda op: "/cpu:0" if op.type == "Const" else ""):
            e = tg.constant(1.0)
            f = tg.identity(e)
    assert a.op.device == "" and d.op.device == ""
    assert b.op.device == "/job:worker/task:1" and b.device == b.op.device
    assert c.op.device == "/job:worker/task:1/device:GPU:0"
    assert e.op.device == "/job:worker/task:1/device:CPU:0" and f.op.device == "/job:worker/task:1"
    with tg.colocate_with(a):
        g = a + c
    with tg.Session() as sess:
        assert sess.run(g) == 2.0  # placement is recorded, never changes execution
    with pytest.raises(ValueError, match="'/bogus:1'"):
        tg.device("/bogus:1").__enter__()


# --- graphs: finalize, name scopes, collections -----------------------------------------------------------
def test_finalized_graph_refuses_new_ops():
    g = tg.get_default_graph()
    x = tg.constant(1.0)
    g.finalize()
    assert g.finalized
    with pytest.raises(RuntimeError, match="Graph is finalized and cannot be modified.*'Const'.*'my_const'"):
        tg.constant(2.0, name="my_const")
    with tg.Session() as sess:
        assert sess.run(x) == 1.0


def test_name_scope_tf1_signature():
    with tg.name_scope(None, default_name="block") as scope:
        a = tg.constant(1.0, name="a")
        assert scope == "block/" and tg.get_name_scope() == "block"
    with tg.name_scope(None, "block"):
        b = tg.constant(1.0, name="a")
    assert (a.op.name, b.op.name) == ("block/a", "block_1/a")
    g = tg.Graph()
    with g.as_default():
        y = tg.constant(1.0)
    with tg.name_scope("s", values=[y]):
        z = tg.identity(y)  # built in y's graph: name_scope enters the graph of its values
    assert z.graph is g and z.op.name == "s/Identity"


def test_collections_by_key_and_scope():
    tg.add_to_collection("things", tg.constant(1.0, name="a/x"))
    tg.add_to_collections(["things", "more"], tg.constant(1.0, name="b/x"))
    assert [t.op.name for t in tg.get_collection("things")] == ["a/x", "b/x"]
    assert [t.op.name for t in tg.get_collection("things", scope="b")] == ["b/x"]
    ref = tg.get_collection_ref("more")
    ref.clear()
    assert tg.get_collection("more") == []
    assert {"things", "more"} <= set(tg.get_default_graph().get_all_collection_keys())
    assert tg.GraphKeys.GLOBAL_VARIABLES == "variables"


# --- variables --------------------------------------------------------------------------------------------
def test_variable_tf1_signature_and_collections():
    a = tg.Variable(1.0, name="a")
    b = tg.Variable(2.0, False, name="b")  # TF1's second positional argument is trainable
    c = tg.Variable(np.zeros(3), name="c", collections=[tg.GraphKeys.LOCAL_VARIABLES], trainable=False)
    d = tg.Variable([1.0], name="d", collections=[tg.GraphKeys.MODEL_VARIABLES, tg.GraphKeys.GLOBAL_VARIABLES])
    assert tg.global_variables() == [a, b, d] and tg.trainable_variables() == [a, d]
    assert tg.local_variables() == [c] and tg.model_variables() == [d]
    assert a.value() is a and a.op.type == "VariableV2" and a.device == "" and a.get_shape() == ()
    with pytest.raises(ValueError, match="initial_value must be specified"):
        tg.Variable(name="nothing")
    with pytest.raises(ValueError, match="collections argument.*'oops'"):
        tg.Variable(1.0, collections="oops")
    e = tg.Variable(tg.zeros([2]), validate_shape=False)
    assert e.shape.ndims is None
    with tg.Session() as sess:
        sess.run([tg.global_variables_initializer(), tg.local_variables_initializer()])
        np.testing.assert_array_equal(sess.run(c), np.zeros(3))
        sess.run(tg.assign(a, 4.0))
        sess.run([tg.assign_add(b, 3.0), tg.assign_sub(d, [0.5])])
        assert sess.run([a, b]) == [4.0, 5.0] and sess.run(d).tolist() == [0.5]
        sess.run(e.initializer)
        sess.run(tg.assign(e, [1.0, 2.0, 3.0]))
        assert sess.run(e).tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(TypeError, match="Variable as ref"):
        tg.assign(tg.constant(1.0), 2.0)


def test_initialization_reports():
    a = tg.Variable(1.0, name="a")
    b = tg.get_variable("b", [2])
    c = tg.Variable(0, name="c", collections=[tg.GraphKeys.LOCAL_VARIABLES])
    report = tg.report_uninitialized_variables()
    check = tg.assert_variables_initialized([a, b])
    with tg.Session() as sess:
        assert report.dtype == tg.string
        assert sess.run(report).tolist() == [b"a", b"b", b"c"]
        assert sess.run(tg.is_variable_initialized(a)) == False  # noqa: E712 - numpy bool
        with pytest.raises(tg.FailedPreconditionError, match=r"\['a', 'b'\]"):
            sess.run(check)
        sess.run(a.initializer)
        assert sess.run(report).tolist() == [b"b", b"c"]
        assert sess.run(tg.is_variable_initialized(a)) == True  # noqa: E712
        sess.run([tg.global_variables_initializer(), tg.local_variables_initializer()])
        assert sess.run(report).shape == (0,)
        sess.run(check)


def test_get_variable_regularizer_goes_to_its_collection():
    w = tg.get_variable("w", [2], initializer=tg.constant_initializer([3.0, 4.0]),
                        regularizer=lambda v: tg.reduce_sum(v * v) * 0.5)
    (loss,) = tg.get_collection(tg.GraphKeys.REGULARIZATION_LOSSES)
    assert loss.op.name.startswith("w/Regularizer/")
    with tg.variable_scope("s", regularizer=lambda v: tg.reduce_sum(v)):
        u = tg.get_variable("u", initializer=tg.constant([1.0, 2.0]))
    assert len(tg.get_collection(tg.GraphKeys.REGULARIZATION_LOSSES)) == 2
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        losses = sess.run(tg.get_collection(tg.GraphKeys.REGULARIZATION_LOSSES))
        np.testing.assert_allclose(losses, [0.5 * (9 + 16), 3.0])
        assert sess.run(u).tolist() == [1.0, 2.0] and sess.run(w).tolist() == [3.0, 4.0]


def test_get_variable_refuses_partitioners_and_custom_getters_by_name():
    with pytest.raises(NotImplementedError, match="partitioner"):
        tg.get_variable("w", [4], partitioner=lambda shape, dtype: [2])
    with pytest.raises(NotImplementedError, match="custom_getter"):
        tg.get_variable("w", [4], custom_getter=lambda getter, *a, **k: getter(*a, **k))
    with pytest.raises(NotImplementedError, match="custom_getter"):
        with tg.variable_scope("s", custom_getter=lambda getter, *a, **k: getter(*a, **k)):
            pass


# --- variable scopes --------------------------------------------------------------------------------------
def test_variable_scope_default_names_are_unique():
    names = []
    for _ in range(3):
        with tg.variable_scope(None, default_name="dense") as scope:
            names.append(scope.name)
            tg.get_variable("kernel", [1])
    with tg.variable_scope("dense_3"):
        pass
    with tg.variable_scope(None, default_name="dense") as scope:
        names.append(scope.name)
    assert names == ["dense", "dense_1", "dense_2", "dense_4"]
    assert [v.op.name for v in tg.global_variables()] == ["dense/kernel", "dense_1/kernel", "dense_2/kernel"]
    with pytest.raises(TypeError, match="default_name"):
        with tg.variable_scope(None):
            pass


def test_scope_dtype_reuse_variables_and_inherited_defaults():
    with tg.variable_scope("net", dtype=tg.float64, initializer=tg.ones_initializer()) as scope:
        w = tg.get_variable("w", [2])
        with tg.variable_scope("inner"):
            x = tg.get_variable("x", [1])
        scope.reuse_variables()
        assert tg.get_variable("w", [2]) is w
    assert w.dtype == tg.float64 and x.dtype == tg.float64 and x.op.name == "net/inner/x"
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        assert sess.run(x).tolist() == [1.0]
    tg.get_variable_scope().reuse_variables()
    assert tg.get_variable("net/w") is w
    with pytest.raises(ValueError, match="Variable new does not exist"):
        tg.get_variable("new", [1])


def test_a_scalar_fetch_is_a_numpy_scalar_whatever_computes_it():
    """TF1's Session.run gives np.float32(3.0), not array(3.0), for every 0-d fetch: constants and variables too,
    so print(sess.run([w, b])) reads [5.0, 3.0] as in the TF1 tutorials; and an array fetch is a copy of state."""
    w, v = tg.Variable(5.0), tg.Variable([1.0, 2.0])
    x = tg.constant(3.0)
    fetches = [x, w, w * x, tg.constant(2), tg.constant(True), tg.cast(x, tg.int64), tg.constant("ab")]
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        got = sess.run(fetches)
        assert [type(r) for r in got] == [np.float32, np.float32, np.float32, np.int32, np.bool_, np.int64, bytes]
        assert got[:3] == [3.0, 5.0, 15.0]
        before_w, before_v = sess.run([w, v])
        sess.run([w.assign_add(1.0), v.assign_add([1.0, 1.0])])
        assert before_w == 5.0 and before_v.tolist() == [1.0, 2.0] and sess.run(w) == 6.0
