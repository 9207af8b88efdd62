"""tf.fingerprint: FarmHash Fingerprint64 of each row's bytes (of each string, then of those for several strings a
row), its 8 bytes little-endian. TF's own bytes are checked by the conformance table's `top` family."""
import numpy as np
import pytest

import trainer as tg
from trainer.ops.kernels.string_hash import fingerprint64
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)


def expected(rows):
    return np.array([fingerprint64(bytes(r)) for r in rows], "<u8").view(np.uint8).reshape(-1, 8)


def test_rows_of_numbers_and_of_strings():
    numbers = np.arange(12, dtype=np.int16).reshape(3, 2, 2)
    words = np.array([[b"ab", b"c"], [b"", b"d"]], dtype=object)
    with tg.Session() as sess:
        got_numbers, got_words, got_single = sess.run([tg.fingerprint(numbers), tg.fingerprint(words),
                                                       tg.fingerprint(words[:, 0])])
    np.testing.assert_array_equal(got_numbers, expected([row.tobytes() for row in numbers]))
    np.testing.assert_array_equal(got_single, expected([b"ab", b""]))
    per_string = expected([b"ab", b"c", b"", b"d"]).reshape(2, 16)
    np.testing.assert_array_equal(got_words, expected([row.tobytes() for row in per_string]))


def test_fingerprint_needs_rows_and_farmhash():
    with pytest.raises(ValueError, match="rank >= 1"):
        tg.fingerprint(3)
    with pytest.raises(ValueError, match="'farmhash64'"):
        tg.fingerprint([1, 2], method="md5")
    assert tg.fingerprint(tg.placeholder(tg.float32, [None, 3])).shape.as_list() == [None, 8]
