"""The tf.string ops on fed and constant strings against Python's own string methods (TF's answers are in the
conformance family "strings")."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph, run_initialized  # noqa: F401 (fresh_graph: autouse)

WORDS = np.array([b"Hello World", b"  tab\there ", b"", "caf\u00e9".encode()], dtype=object)


def run_fed(build, value=WORDS):
    x = tg.placeholder(tg.string, [None])
    with tg.Session() as sess:
        return sess.run(build(x), {x: value})


def test_elementwise_string_ops_on_fed_strings():
    assert run_fed(lambda x: tg.strings.join([x, "!"], separator="-")).tolist() == [w + b"-!" for w in WORDS]
    assert run_fed(tg.strings.length).tolist() == [len(w) for w in WORDS]
    assert run_fed(lambda x: tg.strings.length(x, unit="UTF8_CHAR")).tolist() == [len(w.decode()) for w in WORDS]
    assert run_fed(tg.strings.lower).tolist() == [w.lower() for w in WORDS]
    assert run_fed(tg.strings.upper).tolist() == [w.upper() for w in WORDS]
    assert run_fed(tg.strings.strip).tolist() == [w.strip() for w in WORDS]
    assert run_fed(lambda x: tg.strings.substr(x, 1, 3), WORDS[:2]).tolist() == [b"ell", b" ta"]
    assert run_fed(lambda x: tg.strings.regex_replace(x, r"(\w)(\w*)", r"\2\1")).tolist()[0] == b"elloH orldW"
    assert run_fed(lambda x: tg.strings.regex_full_match(x, ".*o.*")).tolist() == [True, False, False, False]
    with pytest.raises(tg.errors.InvalidArgumentError, match="out of range"):
        run_fed(lambda x: tg.strings.substr(x, 5, 1))


def test_numbers_to_strings_and_back():
    x = tg.constant([1.5, -2.25])
    assert run_initialized(tg.as_string(x)).tolist() == [b"1.500000", b"-2.250000"]
    assert run_initialized(tg.as_string(tg.constant([7]), width=3, fill="0")).tolist() == [b"007"]
    np.testing.assert_array_equal(run_initialized(tg.strings.to_number(tg.as_string(x, precision=2))), [1.5, -2.25])
    assert run_fed(lambda s: tg.string_to_number(s, tg.int64), np.array([b"12", b"-3"], object)).tolist() == [12, -3]
    with pytest.raises(tg.errors.InvalidArgumentError, match="could not correctly convert string: x1"):
        run_fed(tg.string_to_number, np.array([b"x1"], object))


def test_split_gives_a_sparse_tensor_and_reduce_join_joins_back():
    parts = run_fed(lambda x: tg.string_split(x))
    words = [[p for p in w.split(b" ") if p] for w in WORDS]  # at spaces only, by default
    assert parts.values.tolist() == [p for row in words for p in row]
    assert parts.dense_shape.tolist() == [len(WORDS), max(map(len, words))]
    assert parts.indices.tolist() == [[r, c] for r, row in enumerate(words) for c in range(len(row))]
    dense = tg.sparse.to_dense(tg.strings.split(tg.constant(["a b", "c"])))
    assert run_initialized(dense).tolist() == [[b"a", b"b"], [b"c", b""]]
    joined = tg.reduce_join(dense, axis=1, separator=" ")
    assert joined.shape.ndims == 1 and run_initialized(joined).tolist() == [b"a b", b"c "]


def test_hash_buckets_are_tensorflows():
    # TensorFlow 2.15.1's answers for these words with num_buckets = 2**63 - 1 (the hashes themselves, almost)
    words = np.array([b"", b"hello", b"x" * 100], object)
    most = 2 ** 63 - 1
    assert run_fed(lambda x: tg.strings.to_hash_bucket_fast(x, most), words).tolist() == [
        1936946117179621456, 3786372426573024489, 6590480085648050719]
    assert run_fed(lambda x: tg.strings.to_hash_bucket(x, most), words).tolist() == [
        105434511174508092, 5943547241907780938, 6094197843925237000]
    assert run_fed(lambda x: tg.strings.to_hash_bucket_strong(x, most, [1, 2]), words).tolist() == [
        443797209252341628, 2957200328589801622, 1638981394980189463]


def test_unsorted_segment_join_joins_in_order_of_appearance():
    joined = tg.strings.unsorted_segment_join(tg.constant(["a", "b", "c", "d"]), [1, 0, 1, 0], 3, separator="+")
    assert joined.shape.as_list() == [3] and run_initialized(joined).tolist() == [b"b+d", b"a+c", b""]
    with pytest.raises(tg.errors.InvalidArgumentError, match="out of range"):
        run_initialized(tg.strings.unsorted_segment_join(tg.constant(["a"]), [-1], 2))


def test_format_shows_tensors_as_tf_print_does():
    text = tg.strings.format("x={} names={} n={}", [tg.constant(0.1), tg.constant(["a", "b"]), tg.range(10)])
    assert text.shape.as_list() == [] and run_initialized(text) == b'x=0.1 names=["a" "b"] n=[0 1 2 ... 7 8 9]'
    with pytest.raises(ValueError, match="must match"):
        tg.strings.format("{}", [])
