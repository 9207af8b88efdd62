"""Seeded random ops give TensorFlow's numbers (the values themselves are compared with TF's in
conformance/cases_random.py); here: the generator against Philox's published answers, a seeded TF1 program's
printed lines against what TF printed, and what seeds do and do not fix."""
import contextlib
import io
import json
import pathlib

import numpy as np
import pytest

import trainer as tg
from trainer.ops.kernels.philox import philox_blocks

FIXTURES = pathlib.Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()
    yield
    tg.reset_default_graph()


@pytest.mark.parametrize("key, counter, expected", [
    # Random123's known-answer vectors for philox4x32-10 (counter words low first, key words low first)
    ((0, 0), 0, [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    ((0xFFFFFFFF, 0xFFFFFFFF), (1 << 128) - 1, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    ((0xA4093822, 0x299F31D0), 0x03707344_13198A2E_85A308D3_243F6A88, [0xD16CFE09, 0x94FDCCEB, 0x5001E420,
                                                                          0x24126EA1]),
])
def test_philox_gives_the_published_answers(key, counter, expected):
    assert philox_blocks(key, counter, 1)[0].tolist() == expected


def test_blocks_follow_the_counter_across_its_words():
    # block i is Philox at counter + i, the carry crossing from the low 64 bits into the high ones
    start = (5 << 64) + (1 << 64) - 2
    run = philox_blocks((1, 2), start, 4)
    for i in range(4):
        assert run[i].tolist() == philox_blocks((1, 2), start + i, 1)[0].tolist()
    assert philox_blocks((1, 2), start, 2, stride=3)[1].tolist() == run[3].tolist()


def test_a_seeded_program_prints_what_tensorflow_printed():
    recorded = json.loads((FIXTURES / "seeded_program.json").read_text())
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec((FIXTURES / "seeded_program.py").read_text(), {"tf": tg})
    assert recorded["tensorflow"].startswith("2.15")
    assert out.getvalue().splitlines() == recorded["printed"]


def test_unseeded_ops_differ_between_sessions_and_seeded_ones_repeat():
    free, seeded = tg.random_normal([8]), tg.random_normal([8], seed=3)
    with tg.Session() as first, tg.Session() as second:
        a, b = first.run([free, seeded]), second.run([free, seeded])
    assert not np.array_equal(a[0], b[0])
    assert np.array_equal(a[1], b[1])


def test_the_nth_unseeded_op_of_a_seeded_graph_gets_op_seed_n():
    tg.set_random_seed(42)
    tg.constant(1.0)  # ops that draw nothing do not move the count
    first, second = tg.random_uniform([3]), tg.random_uniform([3])
    with tg.Graph().as_default():
        tg.set_random_seed(42)
        again = [tg.random_uniform([3], seed=n) for n in (0, 1)]
        with tg.Session() as sess:
            expected = sess.run(again)
    with tg.Session() as sess:
        assert [v.tolist() for v in sess.run([first, second])] == [v.tolist() for v in expected]


def test_each_run_draws_the_next_values_and_a_checkpointed_stream_resumes():
    x = tg.truncated_normal([5], seed=1)
    with tg.Session() as sess:
        first = sess.run(x)
        state = sess.random_state()
        second, third = sess.run(x), sess.run(x)
    assert not np.array_equal(first, second)
    with tg.Session() as sess:
        sess.set_random_state(json.loads(json.dumps(state)))
        assert np.array_equal(sess.run(x), second) and np.array_equal(sess.run(x), third)
