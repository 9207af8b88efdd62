"""Every cell of seed notebook 003 (code 4-9 to 4-14), run with tg, prints what the notebook shows."""
import re
import textwrap

import pytest

import trainer as tg


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()
    yield
    tg.reset_default_graph()


def run_cell(source, capsys, continued=""):
    exec(textwrap.dedent(source) + textwrap.dedent(continued), {"tf": tg, "np": __import__("numpy")})
    return capsys.readouterr().out


CELL_4_9 = """
    var1 = tf.Variable(1.0 , name='firstvar')
    print ("var1:",var1.name)
    var1 = tf.Variable(2.0 , name='firstvar')
    print ("var1:",var1.name)
    var2 = tf.Variable(3.0 )
    print ("var2:",var2.name)
    var2 = tf.Variable(4.0 )
    print ("var1:",var2.name)
"""


def test_code_4_9_variable_names_are_uniquified(capsys):
    out = run_cell(CELL_4_9, capsys, """
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("var1=",var1.eval())
        print("var2=",var2.eval())
    """)
    assert out == ("var1: firstvar:0\nvar1: firstvar_1:0\nvar2: Variable:0\nvar1: Variable_1:0\n"
                   "var1= 2.0\nvar2= 4.0\n")


def test_code_4_9_continued_get_variable_twice_is_disallowed(capsys):
    run_cell(CELL_4_9, capsys)  # the notebook re-ran the cell in the same graph
    with pytest.raises(ValueError, match=r"^Variable firstvar already exists, disallowed\. Did you mean to set "
                                         r"reuse=True or reuse=tg\.AUTO_REUSE in VarScope\? Originally defined at"):
        run_cell(CELL_4_9, capsys, """
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print("var1=",var1.eval())
            print("var2=",var2.eval())
            get_var1 = tf.get_variable("firstvar",[1], initializer=tf.constant_initializer(0.3))
            print("get_var1:", get_var1.name)
            get_var1 = tf.get_variable("firstvar",[1], initializer=tf.constant_initializer(0.4))
        """)
    out = capsys.readouterr().out
    assert out == ("var1: firstvar_2:0\nvar1: firstvar_3:0\nvar2: Variable_2:0\nvar1: Variable_3:0\n"
                   "var1= 2.0\nvar2= 4.0\nget_var1: firstvar_4:0\n")


def test_code_4_9_continued_distinct_get_variable_names(capsys):
    out = run_cell(CELL_4_9, capsys, """
    get_var1 = tf.get_variable("firstvar",[1], initializer=tf.constant_initializer(0.3))
    print("get_var1:", get_var1.name)
    get_var1 = tf.get_variable("firstvar1",[1], initializer=tf.constant_initializer(0.4))
    print("get_var1:", get_var1.name)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("get_var1=",get_var1.eval())
    """)
    assert out == ("var1: firstvar:0\nvar1: firstvar_1:0\nvar2: Variable:0\nvar1: Variable_1:0\n"
                   "get_var1: firstvar_2:0\nget_var1: firstvar1:0\nget_var1= [0.4]\n")


def test_code_4_10_scopes_separate_names(capsys):
    out = run_cell("""
    with tf.variable_scope("test1", ):
        var1 = tf.get_variable("firstvar",shape=[2],dtype=tf.float32)
    with tf.variable_scope("test2", ):
        var2 = tf.get_variable("firstvar",shape=[2],dtype=tf.float32)
    print ("var1:",var1.name)
    print ("var2:",var2.name)
    """, capsys)
    assert out == "var1: test1/firstvar:0\nvar2: test2/firstvar:0\n"


CELL_4_11 = """
    with tf.variable_scope("test1", ):
        var1 = tf.get_variable("firstvar",shape=[2],dtype=tf.float32)
        with tf.variable_scope("test2", ):
            var2 = tf.get_variable("firstvar",shape=[2],dtype=tf.float32)
    print ("var1:",var1.name)
    print ("var2:",var2.name)
"""


def test_code_4_11_nested_scopes(capsys):
    assert run_cell(CELL_4_11, capsys) == "var1: test1/firstvar:0\nvar2: test1/test2/firstvar:0\n"


def test_code_4_11_continued_reuse_shares_variables(capsys):
    out = run_cell(CELL_4_11, capsys, """
    with tf.variable_scope("test1",reuse=True ):
        var3= tf.get_variable("firstvar",shape=[2],dtype=tf.float32)
        with tf.variable_scope("test2"):
            var4 = tf.get_variable("firstvar",shape=[2],dtype=tf.float32)
    print ("var3:",var3.name)
    print ("var4:",var4.name)
    assert var3 is var1 and var4 is var2
    """)
    assert out.endswith("var3: test1/firstvar:0\nvar4: test1/test2/firstvar:0\n")


def test_code_4_12_initializers_are_inherited(capsys):
    out = run_cell("""
    with tf.variable_scope("test1", initializer=tf.constant_initializer(0.4)):
        var1 = tf.get_variable("firstvar",shape=[2],dtype=tf.float32)
        with tf.variable_scope("test2"):
            var2 = tf.get_variable("firstvar",shape=[2],dtype=tf.float32)
            var3 = tf.get_variable("test3", shape=[2],initializer=tf.constant_initializer(0.3))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print ("var1=",var1.eval())
        print ("var2=",var2.eval())
        print ("var3=",var3.eval())
    """, capsys)
    assert out == "var1= [0.4 0.4]\nvar2= [0.4 0.4]\nvar3= [0.3 0.3]\n"


def test_code_4_13_captured_scope_ignores_outer_scopes(capsys):
    out = run_cell("""
    with tf.variable_scope("scope1") as sp:
         var1 = tf.get_variable("v", [1])
    print("sp:",sp.name)
    print("var1:",var1.name)
    with tf.variable_scope("scope2"):
        var2 = tf.get_variable("v", [1])
        with tf.variable_scope(sp) as sp1:
            var3 = tf.get_variable("v3", [1])
    print("sp1:",sp1.name)
    print("var2:",var2.name)
    print("var3:",var3.name)
    """, capsys)
    assert out == "sp: scope1\nvar1: scope1/v:0\nsp1: scope1\nvar2: scope2/v:0\nvar3: scope1/v3:0\n"


def test_code_4_13_name_scope_limits_ops_only(capsys):
    out = run_cell("""
    with tf.variable_scope("scope"):
        with tf.name_scope("bar"):
            v = tf.get_variable("v", [1])
            x = 1.0 + v
    print("v:",v.name)
    print("x.op:",x.op.name)
    """, capsys)
    assert out == "v: scope/v:0\nx.op: scope/bar/add\n"


# Both continuations of code 4-13 start from the same scopes; they go on inside `variable_scope(sp)`.
CELL_4_13_SCOPES = """
    with tf.variable_scope("scope1") as sp:
         var1 = tf.get_variable("v", [1])
    with tf.variable_scope("scope2"):
        var2 = tf.get_variable("v", [1])
        with tf.variable_scope(sp) as sp1:
            var3 = tf.get_variable("v3", [1])
"""


def test_code_4_13_empty_variable_scope_adds_an_empty_level(capsys):
    out = run_cell(CELL_4_13_SCOPES + """
            with tf.variable_scope("") :
                var4 = tf.get_variable("v4", [1])
    print("var4:",var4.name)
    """, capsys)
    assert out == "var4: scope1//v4:0\n"


def test_code_4_13_empty_name_scope_returns_to_top(capsys):
    out = run_cell(CELL_4_13_SCOPES + """
            with tf.variable_scope("scope"):
                with tf.name_scope("bar"):
                    v = tf.get_variable("v", [1])
                    x = 1.0 + v
                    with tf.name_scope(""):
                         y = 1.0 + v
    print("y.op:",y.op.name)
    """, capsys)
    assert out == "y.op: add\n"


GRAPH_ADDRESS = re.compile(r"<trainer\.framework\.graph\.Graph object at 0x[0-9a-f]+>")


def graph_ids(out):
    """The printed graph objects, numbered by first appearance (addresses differ from run to run)."""
    seen = {}
    return [seen.setdefault(m, len(seen)) for m in GRAPH_ADDRESS.findall(out)]


CELL_4_14 = """
    c = tf.constant(0.0)
    g = tf.Graph()
    with g.as_default():
        c1 = tf.constant(0.0)
        print(c1.graph)
        print(g)
        print(c.graph)
    g2 =  tf.get_default_graph()
    print(g2)
    tf.reset_default_graph()
    g3 =  tf.get_default_graph()
    print(g3)
"""


def test_code_4_14_default_graphs(capsys):
    out = run_cell(CELL_4_14, capsys)
    # Notebook: ...518, ...518, ...E48, ...E48, ...940 -> the new graph twice, the old default twice, a fresh one.
    assert graph_ids(out) == [0, 0, 1, 1, 2]


def test_code_4_14_exercise_graph_inside_with_block(capsys):
    # The exercise: the same cell, but the with-block makes a new, unnamed graph the default instead of g.
    exercise = CELL_4_14.replace("with g.as_default():", "with tf.Graph().as_default():")
    assert exercise != CELL_4_14
    out = run_cell(exercise, capsys)
    assert graph_ids(out) == [0, 1, 2, 2, 3]


def test_code_4_14_continued_lookups(capsys):
    namespace = {"tf": tg}
    exec(textwrap.dedent(CELL_4_14), namespace)
    capsys.readouterr()
    exec(textwrap.dedent("""
    print(c1.name)
    t = g.get_tensor_by_name(name = "Const:0")
    print(t)
    a = tf.constant([[1.0, 2.0]])
    b = tf.constant([[1.0], [3.0]])
    tensor1 = tf.matmul(a, b, name='exampleop')
    print(tensor1.name,tensor1)
    test = g3.get_tensor_by_name("exampleop:0")
    print(test)
    print(tensor1.op.name)
    testop = g3.get_operation_by_name("exampleop")
    print(testop)
    with tf.Session() as sess:
        test =  sess.run(test)
        print(test)
        test = tf.get_default_graph().get_tensor_by_name("exampleop:0")
        print(test)
    tt2 = g.get_operations()
    print(tt2)
    tt3 = g.as_graph_element(c1)
    print(tt3)
    """), namespace)
    out = capsys.readouterr().out
    assert out == textwrap.dedent('''\
        Const:0
        Tensor("Const:0", shape=(), dtype=float32)
        exampleop:0 Tensor("exampleop:0", shape=(1, 1), dtype=float32)
        Tensor("exampleop:0", shape=(1, 1), dtype=float32)
        exampleop
        name: "exampleop"
        op: "MatMul"
        input: "Const"
        input: "Const_1"
        attr {
          key: "T"
          value {
            type: DT_FLOAT
          }
        }
        attr {
          key: "transpose_a"
          value {
            b: false
          }
        }
        attr {
          key: "transpose_b"
          value {
            b: false
          }
        }

        [[7.]]
        Tensor("exampleop:0", shape=(1, 1), dtype=float32)
        [<tf.Operation 'Const' type=Const>]
        Tensor("Const:0", shape=(), dtype=float32)
        ''')
