"""The "errors" family: ops that build but fail inside Session.run on the values fed, where TF raises an OpError
(InvalidArgumentError, ...) naming the op; ringflow must raise the same class, never a bare ValueError,
TypeError or IndexError from a kernel. The fed values come from cases.py's domains: "idx9" indices run past
small tables, "prob" integers hold a zero, "idx1" floats are all zeros (a singular matrix)."""
from .cases import call, p, t

INF = {"np": "float32", "v": float("inf")}


def _list(*items):
    return {"list": list(items)}


ROWS = [
    ("gather/out_of_range", call("gather", t("float32", (2, 3)), p("int32", (None,), (2,), "idx9"))),
    ("nn.embedding_lookup/out_of_range", call("nn.embedding_lookup", t("float32", (2, 3)),
                                              p("int32", (None,), (2,), "idx9"))),
    ("reshape/size", call("reshape", p("float32", (None,), (3,)), [2, 2])),
    ("matmul/inner_dims", call("matmul", p("float32", (None, None), (2, 3)), p("float32", (None, None), (2, 3)))),
    ("add/broadcast", call("add", p("float32", (None,), (2,)), p("float32", (None,), (3,)))),
    ("concat/dims", call("concat", _list(p("float32", (None, None), (2, 3)), p("float32", (None, None), (3, 2))), 0)),
    ("stack/shapes", call("stack", _list(p("float32", (None,), (2,)), p("float32", (None,), (3,))))),
    ("floordiv/int_zero", call("floordiv", t("int32", (2,)), p("int32", (None,), (2,), "prob"))),
    ("mod/int_zero", call("mod", t("int32", (2,)), p("int32", (None,), (2,), "prob"))),
    ("nn.sparse_softmax_cross_entropy_with_logits/label", call(
        "nn.sparse_softmax_cross_entropy_with_logits", labels=p("int32", (None,), (2,), "idx9"), logits=t())),
    ("nn.softmax_cross_entropy_with_logits_v2/shapes", call(
        "nn.softmax_cross_entropy_with_logits_v2", labels=p("float32", (None, None), (2, 3), "prob"),
        logits=p("float32", (None, None), (2, 4)))),
    ("slice/size", call("slice", p("float32", (None,), (2,)), [1], [5])),
    ("split/uneven", call("split", p("float32", (None,), (3,)), 2)),
    ("squeeze/not_one", call("squeeze", p("float32", (None, None), (2, 2)), [0])),
    ("fill/negative", call("fill", p("int32", (None,), (1,)), 1.0)),
    ("range/zero_delta", call("range", 0, 5, p("int32", (), (), "idx1"))),
    ("tile/multiples_length", call("tile", p("float32", (None,), (2,)), p("int32", (None,), (2,), "pos"))),
    ("one_hot/negative_depth", call("one_hot", p("int32", (None,), (1,), "idx3"), p("int32", (), ()))),
    ("pad/paddings_rank", call("pad", p("float32", (None,), (1,)), p("int32", (None, None), (2, 2), "idx2"))),
    ("math.segment_sum/negative_id", call("math.segment_sum", t("float32", (2,)), p("int32", (None,), (2,)))),
    ("math.unsorted_segment_sum/out_of_range", call("math.unsorted_segment_sum", t("float32", (2,)),
                                                    p("int32", (None,), (2,), "idx9"), 2)),
    ("matrix_inverse/singular", call("matrix_inverse", p("float32", (None, None), (2, 2), "idx1"))),
    ("cholesky/singular", call("cholesky", p("float32", (None, None), (2, 2), "idx1"))),
    ("nn.conv2d/channels", call("nn.conv2d", p("float32", (None, None, None, None), (1, 3, 3, 2)),
                                t("float32", (2, 2, 3, 1)), [1, 1, 1, 1], "VALID")),
    ("check_numerics/inf", call("check_numerics", INF, "checked")),
    ("debugging.check_numerics/inf", call("debugging.check_numerics", INF, "checked")),
]


def cases():
    """{case id: case} of the family, every id under "errors/"."""
    return {f"errors/{name}": case for name, case in ROWS}
