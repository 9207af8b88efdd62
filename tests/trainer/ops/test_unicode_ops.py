"""unicode_transcode and unicode_encode: round trips through every output encoding, and the three error policies
on malformed bytes and invalid code points."""
import numpy as np
import pytest

import trainer as tg

TEXT = ["héllo", "😀 ok", ""]


def run(fetches):
    with tg.Session() as sess:
        return sess.run(fetches)


@pytest.mark.parametrize("encoding, codec", [("UTF-8", "utf-8"), ("UTF-16-BE", "utf-16-be"),
                                             ("UTF-32-BE", "utf-32-be")])
def test_transcoding_and_encoding_write_the_encoding_asked_for(encoding, codec):
    tg.reset_default_graph()
    codes = [[ord(c) for c in "hé😀"], [ord(c) for c in "abc"]]
    there = tg.strings.unicode_transcode(TEXT, "UTF-8", encoding)
    back = tg.strings.unicode_transcode(there, encoding, "UTF-8")
    got_there, got_back, encoded = run([there, back, tg.strings.unicode_encode(codes, encoding)])
    assert [v.decode(codec) for v in got_there] == TEXT
    assert [v.decode("utf-8") for v in got_back] == TEXT
    assert [v.decode(codec) for v in encoded] == ["hé😀", "abc"]


def test_error_policies():
    tg.reset_default_graph()
    bad = tg.constant([b"a\xffb"])
    replaced, ignored, starred = run([tg.strings.unicode_transcode(bad, "UTF-8", "UTF-8"),
                                      tg.strings.unicode_transcode(bad, "UTF-8", "UTF-8", errors="ignore"),
                                      tg.strings.unicode_encode([[72, -1, 105]], "UTF-8", replacement_char=42)])
    assert replaced[0] == "a\ufffdb".encode() and ignored[0] == b"ab" and starred[0] == b"H*i"
    with pytest.raises(tg.errors.InvalidArgumentError):
        run(tg.strings.unicode_transcode(bad, "UTF-8", "UTF-8", errors="strict"))
    with pytest.raises(tg.errors.InvalidArgumentError):
        run(tg.strings.unicode_encode([[0x110000]], "UTF-8", errors="strict"))
    assert np.shape(run(tg.strings.unicode_encode(np.zeros((2, 3, 0), np.int32), "UTF-8"))) == (2, 3)
