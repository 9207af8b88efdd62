"""The conformance family "strings": tf.string tensors and their ops, SparseTensors and tf.sparse, recorded into
fixtures/tf_oracle_strings.json by `scripts/record_tf_oracle.py --family strings`."""
from .cases import call, t

IDX = [[0, 1], [1, 3], [2, 0]]
SHUFFLED = [[2, 0], [0, 1], [1, 3]]
WORDS = ["hello world", " a  b ", "", "Caf\u00e9 x"]


def sp(values=None, indices=IDX, shape=(3, 4)):
    return {"sparse": [indices, values or t("float64", (len(indices),)), list(shape)]}


def s(value):
    return {"s": value}


SPARSE = [
    ("SparseTensor", call("SparseTensor", IDX, t("float32", (3,)), [3, 4])),
    ("SparseTensor/int32_indices", call("SparseTensor", t("int32", (3, 2), "idx3"), [1.0, 2.0, 3.0], [3, 4])),
    ("sparse.SparseTensor", call("sparse.SparseTensor", IDX, t("int32", (3,)), [3, 4])),
    ("sparse_tensor_to_dense", call("sparse_tensor_to_dense", sp(), grad=True)),
    ("sparse_tensor_to_dense/default", call("sparse_tensor_to_dense", sp(t("int32", (3,))), default_value=7)),
    ("sparse_tensor_to_dense/unordered", call("sparse_tensor_to_dense", sp(indices=SHUFFLED))),
    ("sparse_tensor_to_dense/unvalidated", call("sparse_tensor_to_dense", sp(indices=SHUFFLED),
                                                validate_indices=False)),
    ("sparse_tensor_to_dense/out_of_bounds", call("sparse_tensor_to_dense", sp(indices=[[0, 1], [5, 0]]))),
    ("sparse_tensor_to_dense/strings", call("sparse_tensor_to_dense", sp(s(["a", "b", "c"])))),
    ("sparse.to_dense", call("sparse.to_dense", sp(), grad=True)),
    ("sparse.to_dense/placeholder", call("sparse.to_dense", {"sp_p": "float32", "feed": [IDX, None, [3, 5]]})),
    ("sparse_to_dense", call("sparse_to_dense", IDX, [3, 4], t("float64", (3,)), grad=True)),
    ("sparse_to_dense/default", call("sparse_to_dense", IDX, [3, 4], t("float64", (3,)), t("float64", ()),
                                     grad=True)),
    ("sparse_to_dense/vector", call("sparse_to_dense", [0, 2], [4], 1.0)),
    ("sparse_to_dense/repeated", call("sparse_to_dense", [[0, 1], [0, 1]], [3, 4], [1.0, 2.0])),
    ("sparse.from_dense", call("sparse.from_dense", t("int32", (3, 4), "prob"))),
    ("sparse.from_dense/grad", call("sparse.from_dense", t("float64", (3, 4), "prob"), grad=True)),
    ("sparse.reorder", call("sparse.reorder", sp(indices=SHUFFLED), grad=True)),
    ("sparse_reorder", call("sparse_reorder", sp(indices=SHUFFLED))),
    ("sparse.reshape", call("sparse.reshape", sp(), [2, 6])),
    ("sparse.reshape/infer", call("sparse.reshape", sp(), [-1, 3])),
    ("sparse.reshape/bad", call("sparse.reshape", sp(), [5])),
    ("sparse_reshape", call("sparse_reshape", sp(), [12])),
    ("sparse.add/sparse", call("sparse.add", sp(), sp(t("float64", (2,), salt=1), [[0, 1], [2, 2]]), grad=True)),
    ("sparse.add/threshold", call("sparse.add", sp(), sp(t("float64", (2,), salt=1), [[0, 1], [2, 2]]),
                                  threshold=0.5)),
    ("sparse.add/dense", call("sparse.add", sp(), t("float64", (3, 4), salt=1), grad=True)),
    ("sparse_add/dense_first", call("sparse_add", t("float64", (3, 4), salt=1), sp())),
    ("sparse.add/shape_mismatch", call("sparse.add", sp(), sp(shape=(3, 5)))),
    ("sparse.concat", call("sparse.concat", 1, {"list": [sp(), sp(t("float64", (2,)), [[0, 0], [2, 3]])]})),
    ("sparse.concat/axis0", call("sparse.concat", 0, {"list": [sp(), sp()]})),
    ("sparse_concat", call("sparse_concat", -1, {"list": [sp(), sp()]})),
    ("sparse.reduce_sum", call("sparse.reduce_sum", sp(), grad=True)),
    ("sparse.reduce_sum/axis", call("sparse.reduce_sum", sp(), axis=1, grad=True)),
    ("sparse.reduce_sum/keepdims", call("sparse.reduce_sum", sp(), axis=0, keepdims=True, grad=True)),
    ("sparse_reduce_sum", call("sparse_reduce_sum", sp(), 1)),
    ("sparse.reduce_max", call("sparse.reduce_max", sp(indices=[[0, 1], [2, 0], [2, 2]]), 1)),
    ("sparse.reduce_max/all", call("sparse.reduce_max", sp(t("int32", (3,))))),
    ("sparse_reduce_max/keepdims", call("sparse_reduce_max", sp(), 0, keepdims=True)),
    ("sparse.reduce_max_sparse", call("sparse.reduce_max_sparse", sp(indices=[[0, 1], [2, 0], [2, 2]]), 1)),
    ("sparse.reduce_sum_sparse", call("sparse.reduce_sum_sparse", sp(indices=[[0, 1], [2, 0], [2, 2]]), 0)),
    ("sparse_reduce_sum_sparse/keepdims", call("sparse_reduce_sum_sparse", sp(), 1, keepdims=True)),
    ("sparse.retain", call("sparse.retain", sp(), [True, False, True])),
    ("sparse_retain", call("sparse_retain", sp(), t("bool", (3,)))),
    ("sparse.fill_empty_rows", call("sparse.fill_empty_rows", sp(t("float64", (2,)), [[0, 0], [2, 1]]), 5.0,
                                    grad=True)),
    ("sparse_fill_empty_rows", call("sparse_fill_empty_rows", sp(t("float64", (2,)), [[0, 0], [2, 1]]), -1.0)),
    ("sparse_tensor_dense_matmul", call("sparse_tensor_dense_matmul", sp(), t("float64", (4, 2)), grad=True)),
    ("sparse_tensor_dense_matmul/adjoint_a", call("sparse_tensor_dense_matmul", sp(), t("float64", (3, 2)),
                                                  adjoint_a=True, grad=True)),
    ("sparse_tensor_dense_matmul/adjoint_b", call("sparse_tensor_dense_matmul", sp(), t("float64", (2, 4)),
                                                  adjoint_b=True, grad=True)),
    ("sparse_tensor_dense_matmul/bad_shape", call("sparse_tensor_dense_matmul", sp(), t("float64", (3, 2)))),
    ("sparse.sparse_dense_matmul", call("sparse.sparse_dense_matmul", sp(), t("float64", (4, 1)))),
    ("sparse.matmul", call("sparse.matmul", sp(), t("float64", (4, 3)))),
    ("sparse.transpose", call("sparse.transpose", sp())),
    ("sparse_transpose", call("sparse_transpose", sp(), [1, 0])),
    ("sparse_placeholder", call("sparse.to_dense", {"sp_p": "float64", "feed": [[[0, 0], [1, 2]], None, [2, 3]]})),
    ("sparse_placeholder/shape", call("sparse.to_dense", {"sp_p": "float32", "shape": [None, 3],
                                                          "feed": [[[0, 0], [1, 2]], None, [2, 3]]})),
    ("sparse_placeholder/known", call("sparse.reduce_sum", {"sp_p": "float32", "shape": [2, 3],
                                                            "feed": [[[0, 0], [1, 2]], None, [2, 3]]}, 1)),
    ("convert_to_tensor_or_sparse_tensor", call("convert_to_tensor_or_sparse_tensor", sp())),
    ("edit_distance", call("edit_distance", sp(t("int32", (3,), "idx3")), sp(t("int32", (3,), "idx3", salt=1),
                                                                            [[0, 0], [1, 3], [2, 2]]))),
    ("edit_distance/unnormalized", call("edit_distance", sp(s(["a", "b", "c"])), sp(s(["a", "c"]), [[0, 1], [2, 0]]),
                                        normalize=False)),
    ("edit_distance/empty_truth", call("edit_distance", sp(t("int64", (3,), "idx3")),
                                       sp(t("int64", (1,), "idx3"), [[0, 0]]))),
    ("edit_distance/batch", call("edit_distance", sp(t("int32", (3,), "idx3"), [[0, 0, 0], [0, 1, 1], [1, 0, 2]],
                                                     (2, 2, 3)),
                                 sp(t("int32", (2,), "idx3"), [[0, 0, 1], [1, 1, 0]], (2, 2, 3)))),
    ("edit_distance/dtypes", call("edit_distance", sp(t("int32", (3,))), sp(t("int64", (3,))))),
    ("sparse.slice", call("sparse.slice", sp(), [1, 0], [2, 2], grad=True)),
    ("sparse_slice/clipped", call("sparse_slice", sp(), [1, 2], [5, 5])),
    ("sparse.split", call("sparse.split", sp_input=sp(), num_split=2, axis=1)),
    ("sparse_split/uneven", call("sparse_split", sp_input=sp(), num_split=2, axis=0)),
    ("sparse.expand_dims", call("sparse.expand_dims", sp(), 0)),
    ("sparse.expand_dims/last", call("sparse.expand_dims", sp())),
    ("sparse.eye", call("sparse.eye", 3)),
    ("sparse.eye/rect", call("sparse.eye", 2, 4, dtype={"dtype": "int32"})),
    ("sparse.reset_shape", call("sparse.reset_shape", sp())),
    ("sparse_reset_shape/new", call("sparse_reset_shape", sp(), [5, 6])),
    ("sparse_reset_shape/smaller", call("sparse_reset_shape", sp(), [2, 2])),
    ("sparse.to_indicator", call("sparse.to_indicator", sp(t("int64", (3,), "idx5")), 5)),
    ("sparse_to_indicator/out_of_range", call("sparse_to_indicator", sp(t("int64", (3,), "idx5")), 2)),
    ("sparse.maximum", call("sparse.maximum", sp(), sp(t("float64", (2,), salt=1), [[0, 1], [2, 2]]))),
    ("sparse_minimum", call("sparse_minimum", sp(), sp(t("float64", (2,), salt=1), [[0, 1], [2, 2]]))),
    ("sparse.maximum/grad", call("sparse.maximum", sp(), sp(), grad=True)),
    ("sparse.softmax", call("sparse.softmax", sp(indices=[[0, 1], [0, 3], [2, 0]]), grad=True)),
    ("sparse_softmax/rank1", call("sparse_softmax", sp(indices=[[0], [2], [3]], shape=(4,)))),
    ("sparse.segment_sum", call("sparse.segment_sum", t("float64", (4, 2)), [0, 2, 3], [0, 0, 1], grad=True)),
    ("sparse.segment_sum/num_segments", call("sparse.segment_sum", t("float32", (4, 2)), [3, 1], [2, 0],
                                             num_segments=4)),
    ("sparse_segment_mean", call("sparse_segment_mean", t("float64", (4, 2)), [0, 2, 3], [0, 0, 1], grad=True)),
    ("sparse.segment_sqrt_n", call("sparse.segment_sqrt_n", t("float64", (4, 3)), [0, 1, 3], [0, 0, 2],
                                   grad=True)),
]

STRINGS = [
    ("constant", call("constant", ["a", "bc"])),
    ("constant/scalar", call("constant", "abc")),
    ("string_join", call("string_join", {"list": [s(WORDS), s("!")]})),
    ("strings.join", call("strings.join", {"list": [s(["a", "b"]), s(["c", "d"])]}, separator="-")),
    ("strings.join/shapes", call("strings.join", {"list": [s(["a", "b"]), s(["c", "d", "e"])]})),
    ("strings.length", call("strings.length", s(WORDS))),
    ("strings.length/utf8", call("strings.length", s(WORDS), unit="UTF8_CHAR")),
    ("strings.length/number", call("strings.length", t("int32", (2,)))),
    ("substr", call("substr", s(WORDS[:2]), 1, 3)),
    ("substr/negative", call("substr", s(["hello"]), -3, 2)),
    ("substr/out_of_range", call("substr", s(["abc"]), 5, 1)),
    ("strings.substr", call("strings.substr", s(["abcdef", "xyz"]), [0, 1], [2, 5])),
    ("strings.lower", call("strings.lower", s(["HeLLo", "ABC"]))),
    ("strings.upper", call("strings.upper", s(["HeLLo", "abc"]))),
    ("strings.strip", call("strings.strip", s(WORDS))),
    ("string_strip", call("string_strip", s(["\tx y\n"]))),
    ("regex_replace", call("regex_replace", s(WORDS), "o", "0")),
    ("strings.regex_replace", call("strings.regex_replace", s(WORDS), "[aeiou]", "", replace_global=False)),
    ("strings.regex_replace/group", call("strings.regex_replace", s(["ab12cd"]), r"([a-z]+)(\d+)", r"\2\1")),
    ("strings.regex_replace/bad_pattern", call("strings.regex_replace", s(["x"]), "(", "")),
    ("strings.regex_full_match", call("strings.regex_full_match", s(["abc", "ab1"]), "[a-z]+")),
    ("string_to_number", call("string_to_number", s(["1.5", "-2", "1e3"]))),
    ("string_to_number/int", call("string_to_number", s(["12", "-7"]), {"dtype": "int32"})),
    ("string_to_number/bad", call("string_to_number", s(["1.5x"]))),
    ("strings.to_number", call("strings.to_number", s(["3.25"]), out_type={"dtype": "float64"})),
    ("strings.to_number/int64", call("strings.to_number", s(["9000000000"]), out_type={"dtype": "int64"})),
    ("strings.to_number/overflow", call("strings.to_number", s(["9000000000"]), out_type={"dtype": "int32"})),
    ("as_string", call("as_string", t("float32", (2, 3)))),
    ("as_string/int", call("as_string", t("int64", (3,)))),
    ("as_string/bool", call("as_string", t("bool", (2,)))),
    ("as_string/precision", call("as_string", t("float64", (3,)), precision=2)),
    ("as_string/scientific", call("as_string", t("float64", (2,)), scientific=True)),
    ("as_string/shortest", call("as_string", t("float32", (2,)), shortest=True)),
    ("as_string/width", call("as_string", t("int32", (2,)), width=5, fill="0")),
    ("as_string/string", call("as_string", s(["a"]))),
    ("strings.as_string", call("strings.as_string", t("int32", (2,)))),
    ("reduce_join", call("reduce_join", s([["a", "b"], ["c", "d"]]))),
    ("reduce_join/axis", call("reduce_join", s([["a", "b"], ["c", "d"]]), axis=0, separator=",")),
    ("strings.reduce_join", call("strings.reduce_join", s([["a", "b"], ["c", "d"]]), axis=1, keepdims=True)),
    ("string_split", call("string_split", s(WORDS))),
    ("string_split/sep", call("string_split", s(["a,b;c", "d"]), sep=",;")),
    ("string_split/keep_empty", call("string_split", s(["a  b"]), skip_empty=False)),
    ("string_split/chars", call("string_split", s(["abc", "de"]), sep="")),
    ("string_split/matrix", call("string_split", s([["a b"]]))),
    ("strings.split", call("strings.split", s(WORDS))),
    ("strings.split/sep", call("strings.split", s(["a<>b<><>c", "d"]), sep="<>")),
    ("strings.split/maxsplit", call("strings.split", s(["a b c d"]), maxsplit=2)),
    ("strings.format", call("strings.format", "x={} y={}", {"list": [t("float32", ()), t("int32", (3,))]})),
    ("strings.format/matrix", call("strings.format", "{}", t("float32", (2, 2)))),
    ("strings.format/summarize", call("strings.format", "<{}>", t("int64", (10,)), summarize=2)),
    ("strings.format/strings", call("strings.format", "{} {}", {"list": [s(["a", "b"]), t("bool", ())]})),
    ("strings.format/placeholder", call("strings.format", "%s and %s", {"list": [t("int32", ()), t("float64", ())]},
                                        placeholder="%s")),
    ("strings.format/count", call("strings.format", "{} {}", {"list": [t()]})),
    ("strings.unsorted_segment_join", call("strings.unsorted_segment_join", s(["a", "b", "c", "d"]), [1, 0, 1, 0],
                                           3, separator=":")),
    ("strings.unsorted_segment_join/negative", call("strings.unsorted_segment_join", s(["a", "b"]), [1, -1], 2)),
    ("strings.unsorted_segment_join/matrix", call("strings.unsorted_segment_join", s([["a", "b"], ["c", "d"]]),
                                                  [0, 0], 1)),
    ("strings.unsorted_segment_join/out_of_range", call("strings.unsorted_segment_join", s(["a"]), [4], 2)),
    ("strings.to_hash_bucket_fast", call("strings.to_hash_bucket_fast", s(WORDS + ["x" * 70, "y" * 33]), 1000)),
    ("string_to_hash_bucket_fast", call("string_to_hash_bucket_fast", s([["a", "bb"], ["ccc", "dddd"]]), 3)),
    ("strings.to_hash_bucket_strong", call("strings.to_hash_bucket_strong", s(WORDS), 97, [3, 4])),
    ("string_to_hash_bucket_strong/bad_key", call("string_to_hash_bucket_strong", s(WORDS), 97, [3])),
    ("strings.to_hash_bucket", call("strings.to_hash_bucket", s(WORDS + ["z" * 21]), 50)),
    ("string_to_hash_bucket", call("string_to_hash_bucket", s(["a"]), 7)),
    ("string_to_hash_bucket_fast/numbers", call("string_to_hash_bucket_fast", t("int32", (2,)), 7)),
]


def make(path, *args, **kwargs):
    return {"make": path, "args": list(args), "kwargs": kwargs}


def kv(keys, values, **kwargs):
    return make("lookup.KeyValueTensorInitializer", keys, values, **kwargs)


LOOKUP = [
    ("StaticHashTable", dict(call("lookup.StaticHashTable", kv(s(["a", "b", "c"]), t("int64", (3,))), -1),
                             method=["lookup", s(["b", "z", "a", "c"])])),
    ("StaticHashTable/float", dict(call("lookup.StaticHashTable", kv(t("int64", (3,), "idx9"), t("float32", (3,))),
                                        0.5), method=["lookup", t("int64", (2, 2), "idx9")])),
    ("StaticHashTable/size", dict(call("lookup.StaticHashTable", kv(s(["a", "b"]), [7, 8]), 0), method=["size"])),
    ("StaticHashTable/sparse_keys", dict(call("lookup.StaticHashTable", kv(s(["a", "b"]), [7, 8]), 0),
                                         method=["lookup", {"sparse": [[[0, 0], [1, 1]], s(["b", "x"]), [2, 2]]}])),
    ("StaticHashTable/wrong_key_dtype", dict(call("lookup.StaticHashTable", kv(s(["a"]), [1]), 0),
                                             method=["lookup", t("int32", (2,))])),
    ("StaticHashTable/wrong_default", call("lookup.StaticHashTable", kv(s(["a"]), [1]), "x")),
    ("KeyValueTensorInitializer/lengths", call("lookup.KeyValueTensorInitializer", s(["a", "b"]), [1, 2, 3])),
    ("StaticVocabularyTable", dict(call("lookup.StaticVocabularyTable", kv(s(["a", "b"]), t("int64", (2,), "idx9")),
                                        4), method=["lookup", s(WORDS + ["a", "b", "zz"])])),
    ("StaticVocabularyTable/int_keys", dict(call("lookup.StaticVocabularyTable", kv(t("int64", (2,), "idx9"),
                                                                                   t("int64", (2,), "idx9")), 3),
                                            method=["lookup", t("int64", (4,), "pos")])),
    ("StaticVocabularyTable/size", dict(call("lookup.StaticVocabularyTable", kv(s(["a"]), [0]), 2),
                                        method=["size"])),
    ("StaticVocabularyTable/no_buckets", call("lookup.StaticVocabularyTable", kv(s(["a"]), [0]), 0)),
    ("tables_initializer", call("tables_initializer")),
    ("initialize_all_tables", call("initialize_all_tables")),
]

NEST = [
    ("flatten", call("nest.flatten", {"list": [t("int32"), {"list": [t(), t("bool")]}]})),
    ("flatten/leaf", call("nest.flatten", t("float64"))),
    ("map_structure", call("nest.map_structure", {"fn": "square", "kwargs": {}}, {"list": [t(), [t("int32")]]})),
    ("map_structure/two", call("nest.map_structure", {"fn": "add", "kwargs": {}}, {"list": [t(), t()]},
                               {"list": [t(salt=1), t(salt=2)]})),
    ("map_structure/mismatch", call("nest.map_structure", {"fn": "add", "kwargs": {}}, {"list": [t(), t()]},
                                    {"list": [t()]})),
    ("pack_sequence_as", call("nest.pack_sequence_as", [1, [2, 3]], {"list": [t(), t("int32"), t()]})),
    ("pack_sequence_as/count", call("nest.pack_sequence_as", [1, [2]], {"list": [t()]})),
    ("assert_same_structure", call("nest.assert_same_structure", {"list": [t(), [t()]]}, [3, [4]])),
    ("assert_same_structure/nesting", call("nest.assert_same_structure", {"list": [t(), [t()]]}, [3, 4])),
    ("assert_same_structure/types", call("nest.assert_same_structure", {"list": [t(), t()]}, (3, 4))),
    ("is_nested", call("nest.is_nested", {"list": [t()]})),
]


SETS_SPARSE = {"sparse": [[[0, 0], [0, 1], [1, 0], [1, 2]], t("int32", (4,), "idx5"), [2, 3]]}
SETS = [
    ("intersection", call("sets.intersection", t("int32", (2, 3), "idx5"), t("int32", (2, 4), "idx5", salt=1))),
    ("set_intersection/sparse", call("sets.set_intersection", t("int32", (2, 3), "idx5"), SETS_SPARSE)),
    ("set_intersection/sparse_first", call("sets.set_intersection", SETS_SPARSE, t("int32", (2, 3), "idx5"))),
    ("union", call("sets.union", t("int64", (2, 2), "idx5"), t("int64", (2, 3), "idx5", salt=2))),
    ("set_union/sparse_sparse", call("sets.set_union", SETS_SPARSE, SETS_SPARSE)),
    ("difference", call("sets.difference", t("int32", (2, 3), "idx5"), t("int32", (2, 2), "idx5", salt=1))),
    ("set_difference/b_minus_a", call("sets.set_difference", t("int32", (2, 3), "idx5"), SETS_SPARSE,
                                      aminusb=False)),
    ("set_difference/sparse_first", call("sets.set_difference", SETS_SPARSE, t("int32", (2, 3), "idx5"))),
    ("union/strings", call("sets.union", s([["a", "b"], ["c", "a"]]), s([["b", "d"], ["c", "c"]]))),
    ("union/batch", call("sets.union", t("int32", (2, 2, 3), "idx4"), t("int32", (2, 2, 1), "idx4"))),
    ("intersection/float", call("sets.intersection", t("float32", (2, 2)), t("float32", (2, 2)))),
    ("intersection/rank1", call("sets.intersection", t("int32", (3,)), t("int32", (3,)))),
    ("intersection/batch_mismatch", call("sets.intersection", t("int32", (2, 3)), t("int32", (3, 3)))),
    ("size", call("sets.size", SETS_SPARSE)),
    ("set_size", call("sets.set_size", {"sparse": [[[0, 0], [0, 1], [2, 0]], t("int64", (3,), "idx2"), [3, 2]]})),
    ("size/dense", call("sets.size", t("int32", (2, 3)))),
]


PROBS, BINARY = t("float32", (6,), "prob"), t("int32", (6,), "prob")
CLASSES, GUESSES = t("int64", (6,), "idx3"), t("int64", (6,), "idx3", salt=1)
METRICS = [
    ("true_positives_at_thresholds", call("metrics.true_positives_at_thresholds", BINARY, PROBS, [0.25, 0.5, 0.75],
                                          values=False)),
    ("false_positives_at_thresholds", call("metrics.false_positives_at_thresholds", BINARY, PROBS, [0.5],
                                           values=False)),
    ("true_negatives_at_thresholds", call("metrics.true_negatives_at_thresholds", BINARY, PROBS, [0.1, 0.9],
                                          weights=t("float32", (6,), "pos"), values=False)),
    ("false_negatives_at_thresholds", call("metrics.false_negatives_at_thresholds", BINARY, PROBS, [0.5],
                                           values=False)),
    ("precision_at_thresholds", call("metrics.precision_at_thresholds", BINARY, PROBS, [0.3, 0.6], values=False)),
    ("recall_at_thresholds", call("metrics.recall_at_thresholds", BINARY, PROBS, [0.3, 0.6], values=False)),
    ("sensitivity_at_specificity", call("metrics.sensitivity_at_specificity", BINARY, PROBS, 0.5, values=False)),
    ("sensitivity_at_specificity/bad", call("metrics.sensitivity_at_specificity", BINARY, PROBS, 1.5)),
    ("specificity_at_sensitivity", call("metrics.specificity_at_sensitivity", BINARY, PROBS, 0.5,
                                        num_thresholds=10, values=False)),
    ("mean_iou", call("metrics.mean_iou", CLASSES, GUESSES, 3, values=False)),
    ("mean_iou/weights", call("metrics.mean_iou", CLASSES, GUESSES, 3, weights=t("float32", (6,), "pos"),
                              values=False)),
    ("mean_per_class_accuracy", call("metrics.mean_per_class_accuracy", CLASSES, GUESSES, 3, values=False)),
    ("mean_tensor", call("metrics.mean_tensor", t(), values=False)),
    ("mean_tensor/weights", call("metrics.mean_tensor", t(), weights=t(dom="pos"), values=False)),
    ("mean_cosine_distance", call("metrics.mean_cosine_distance", t(), t(salt=1), 1, values=False)),
]


SAVED_MODEL = [
    ("main_op", call("saved_model.main_op.main_op")),
]


def cases():
    """{case id: case} of the strings family."""
    found = {f"strings/sparse/{name}": case for name, case in SPARSE}
    found.update((f"strings/{name}", case) for name, case in STRINGS)
    found.update((f"strings/lookup/{name}", case) for name, case in LOOKUP)
    found.update((f"strings/nest/{name}", case) for name, case in NEST)
    found.update((f"strings/sets/{name}", case) for name, case in SETS)
    found.update((f"strings/metrics/{name}", case) for name, case in METRICS)
    found.update((f"strings/saved_model/{name}", case) for name, case in SAVED_MODEL)
    found.update((f"strings/metrics/{name}/update", dict(case, values=True, pick=1)) for name, case in METRICS
                 if not name.endswith("/bad"))
    return found
