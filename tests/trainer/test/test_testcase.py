"""tg.test.TestCase: each assert passes where TF 1.15's passes and fails where it fails (a table of both), the
sessions (cached, new, on another graph), evaluate, and the fresh graph and seeds of every test."""
import collections
import os
import unittest

import numpy as np
import pytest

import trainer as tg
from trainer.python.framework import test_util

NAN = float("nan")
Pair = collections.namedtuple("Pair", ["first", "second"])


class Probe(tg.test.TestCase):
    def runTest(self):
        pass


@pytest.fixture
def case():
    probe = Probe()
    probe.setUp()
    yield probe
    probe.tearDown()


def _raise(error):
    raise error


# (method, arguments that pass, arguments that fail); a lambda builds Tensors in the test's fresh graph
TABLE = [
    ("assertAllClose", ([1.0, 2.0], [1.0, 2.0 + 1.5e-6]), ([1.0, 2.0], [1.0, 2.0 + 4e-6])),  # atol + rtol * |b|
    ("assertAllClose", ([NAN, 1.0], [NAN, 1.0]), ([NAN, 1.0], [0.0, 1.0])),
    ("assertAllClose", ({"a": [1.0], "b": (2.0, [3.0, 4.0])}, {"b": (2.0, [3.0, 4.0]), "a": [1.0]}),
     ({"a": [1.0], "b": (2.0, [3.0, 4.0])}, {"a": [1.0], "b": (2.0, [3.0, 4.5])})),
    ("assertAllClose", (Pair([1.0], 2.0), Pair([1.0], 2.0)), (Pair([1.0], 2.0), Pair([1.5], 2.0))),
    ("assertAllClose", ([[1.0], [2.0, 3.0]], [[1.0], [2.0, 3.0]]), ([[1.0], [2.0, 3.0]], [[1.0], [2.0, 3.5]])),
    ("assertAllClose", lambda: (tg.constant([1.0, 2.0]), [1.0, 2.0]), lambda: (tg.constant([1.0, 2.0]), [1.0, 3.0])),
    ("assertAllClose", ([1.0, 2.0], [1.0, 2.1], 0.1), ([1.0, 2.0], [1.0, 2.1], 0.01)),  # rtol positional
    ("assertAllClose", ([1.0, 2.0], [1.0, 2.0]), ([1.0, 2.0], [[1.0, 2.0]])),  # shapes must match
    ("assertAllCloseAccordingToType", (np.float16([1.0]), np.float16([1.0005])), (np.float64([1.0]), [1.0005])),
    ("assertAllCloseAccordingToType", (np.float32([1.0]), np.float32([1.0000015])),
     (np.float32([1.0]), np.float32([1.00001]))),
    ("assertNotAllClose", ([1.0], [1.1]), ([1.0], [1.0])),
    ("assertAllEqual", ([1, 2], [1, 2]), ([1, 2], [1, 3])),
    ("assertAllEqual", ([NAN, 2.0], [NAN, 2.0]), ([1, 2], [[1, 2]])),
    ("assertAllEqual", lambda: (tg.constant([3, 4]), [3, 4]), lambda: (tg.constant([3, 4]), [4, 3])),
    ("assertNear", (1.0, 1.05, 0.1), (1.0, 1.2, 0.1)),
    ("assertNear", (float("inf"), float("inf"), 0.0), (float("inf"), 1.0, 0.1)),
    ("assertArrayNear", ([1.0, 2.0], [1.05, 2.0], 0.1), ([1.0, 2.0], [1.0, 2.2], 0.1)),
    ("assertArrayNear", ([1.0], [1.0], 0.1), ([1.0], [1.0, 2.0], 0.1)),
    ("assertNDArrayNear", (np.array([3.0, 0.0]), np.array([3.0, 0.09]), 0.1),
     (np.array([3.0, 0.0]), np.array([3.08, 0.08]), 0.1)),  # the norm, not the largest difference
    ("assertShapeEqual", lambda: (np.zeros((2, 3)), tg.zeros([2, 3])), lambda: (np.zeros((3, 2)), tg.zeros([2, 3]))),
    ("assertAllInRange", ([0.0, 0.5, 1.0], 0.0, 1.0), ([0.0, 0.5, 1.0], 0.0, 1.0, False, True)),
    ("assertAllInRange", ([1, 2], 1, 2), ([0.5, NAN], 0.0, 1.0)),
    ("assertAllInRange", ([0.5], 0.0, 1.0, True, True), (["a"], 0.0, 1.0)),
    ("assertAllGreater", ([1.0, 2.0], 0.5), ([1.0, 2.0], 1.0)),
    ("assertAllGreaterEqual", ([1.0, 2.0], 1.0), ([1.0, 2.0], 1.5)),
    ("assertAllLess", ([1.0, 2.0], 2.5), ([1.0, 2.0], 2.0)),
    ("assertAllLessEqual", ([1.0, 2.0], 2.0), ([1.0, 2.0], 1.5)),
    ("assertAllGreater", lambda: (tg.constant([1.0, 2.0]), 0.5), lambda: (tg.constant([1.0, 2.0]), 1.5)),
    ("assertAllInSet", ([1, 2, 1], {1, 2}), ([1, 3], {1, 2})),
    ("assertDTypeEqual", (np.float32([1.0]), tg.float32), (np.float32([1.0]), np.float64)),
    ("assertDTypeEqual", lambda: (tg.constant([1]), np.int32), lambda: (tg.constant([1]), tg.int64)),
    ("assertStartsWith", ("prefix and more", "prefix"), ("prefix and more", "more")),
    ("assertLen", ([1, 2], 2), ([1, 2], 3)),  # absltest's, which TF's TestCase inherits
    ("assertEmpty", ([],), ([0],)),
    ("assertNotEmpty", ({"a": 1},), ({},)),
    ("assertItemsEqual", ([1, 2, 2], [2, 1, 2]), ([1, 2, 2], [1, 2])),
    ("assertContainsSubset", ([1, 2], {3, 2, 1}), ([1, 4], {1, 2})),
    ("assertSameElements", ([1, 2, 2], [2, 1]), ([1, 2], [1, 3])),
    ("assertBetween", (2, 1, 3), (4, 1, 3)),
    ("assertNotAllEqual", ([1, 2], [1, 3]), ([1, 2], [1, 2])),
    ("assertNotAllEqual", lambda: (tg.constant([1, 2]), [2, 2]), lambda: (tg.constant([1, 2]), [1, 2])),
]


@pytest.mark.parametrize("method, good, bad", TABLE, ids=[f"{row[0]}-{i}" for i, row in enumerate(TABLE)])
def test_each_assert_passes_and_fails_where_tf_does(case, method, good, bad):
    assert getattr(case, method)(*(good() if callable(good) else good)) is None
    with pytest.raises(AssertionError):
        getattr(case, method)(*(bad() if callable(bad) else bad))


def test_failures_say_where_and_carry_the_message(case):
    with pytest.raises(AssertionError, match=r"a\[b\]\[1\] is different from b\[b\]\[1\]\. my note"):
        case.assertAllClose({"b": [[1.0], [2.0, 3.0]]}, {"b": [[1.0], [2.0, 3.5]]}, msg="my note")
    with pytest.raises(ValueError, match="Can't compare dict to non-dict"):
        case.assertAllClose({"a": 1.0}, [1.0])
    with pytest.raises(ValueError, match="Mismatched length"):
        case.assertAllClose([[1.0], [1.0, 2.0]], [[1.0]])
    with pytest.raises(AssertionError, match=r"1\.000000 != 1\.200000 \+/- 0\.100000 \(why\)"):
        case.assertNear(1.0, 1.2, 0.1, msg="why")
    with pytest.raises(AssertionError, match=r"1 of the 3 element\(s\) are outside the range \[0, 1\)"):
        case.assertAllInRange([0.0, 0.5, 1.0], 0, 1, open_upper_bound=True)
    with pytest.raises(TypeError, match="np_array must be a Numpy ndarray"):
        case.assertShapeEqual([1.0], tg.constant([1.0]))


def test_assert_raises_op_error_matches_op_errors_only(case):
    checked = tg.debugging.check_numerics(tg.constant([NAN]), "found a nan")
    with case.test_session():
        with case.assertRaisesOpError("found a nan"):
            checked.eval()
        with pytest.raises(AssertionError, match="InvalidArgumentError"):
            with case.assertRaisesOpError("something else"):
                checked.eval()
        with pytest.raises(AssertionError, match="ValueError"):
            with case.assertRaisesOpError("found"):
                raise ValueError("found, but not an OpError")
    op = tg.no_op(name="the_failing_op")
    with case.assertRaisesOpError("went wrong\nCaused by: the_failing_op"):  # TF adds the op's name
        raise tg.errors.InvalidArgumentError(None, op, "went wrong")
    with pytest.raises(AssertionError, match="OpError not raised"):
        with case.assertRaisesOpError("anything"):
            pass


def test_assert_raises_with_predicate_match(case):
    with case.assertRaisesWithPredicateMatch(KeyError, lambda e: e.args == ("k",)):
        _raise(KeyError("k"))
    with pytest.raises(AssertionError):
        with case.assertRaisesWithPredicateMatch(KeyError, lambda e: e.args == ("other",)):
            _raise(KeyError("k"))
    with case.assertRaisesWithPredicateMatch(ValueError, "ba+d"):
        _raise(ValueError("a baad value"))


def test_test_session_is_the_cached_default_session_until_teardown():
    probe = Probe()
    probe.setUp()
    with probe.test_session() as first:
        assert tg.get_default_session() is first and first.graph is tg.get_default_graph()
        total = tg.constant(2.0) + 3.0
    with probe.test_session() as again, probe.cached_session() as cached:
        assert again is first and cached is first
        assert total.eval() == 5.0
    other = tg.Graph()
    with pytest.raises(ValueError, match="graph used to get the cached session"):
        with probe.cached_session(graph=other):
            pass
    with probe.test_session(graph=other) as fresh:  # a graph of its own: a new session, closed at the end
        assert fresh is not first and fresh.graph is other and tg.get_default_graph() is other
    with pytest.raises(RuntimeError, match="closed Session"):
        fresh.run(tg.constant(1.0))
    probe.tearDown()
    with pytest.raises(RuntimeError, match="closed Session"):
        first.run(total)


def test_session_is_new_each_time_and_closed_after(case):
    value = tg.constant(7)
    with case.session() as one:
        assert tg.get_default_session() is one and value.eval() == 7
    with case.session(config=tg.ConfigProto()) as two:
        assert two is not one
    with pytest.raises(RuntimeError, match="closed Session"):
        one.run(value)


def test_evaluate_runs_nested_structures_in_the_default_or_cached_session(case):
    a, b = tg.constant([1.0, 2.0]), tg.constant(3)
    got = case.evaluate({"a": a, "pair": Pair(b, [a, b])})
    np.testing.assert_array_equal(got["a"], [1.0, 2.0])
    assert isinstance(got["pair"], Pair) and got["pair"].first == 3 and got["pair"].second[1] == 3
    with tg.Session() as mine:
        mine_value = case.evaluate(b * 2)
    assert mine_value == 6 and mine.graph is a.graph


def test_every_test_starts_with_a_new_graph_and_the_same_seeds():
    draws = []
    for _ in range(2):
        probe = Probe()
        probe.setUp()
        assert tg.get_default_graph().get_operations() == []
        noise = tg.random_normal([3])
        draws.append((probe.evaluate(noise), np.random.rand(), probe.get_temp_dir()))
        probe.tearDown()
    np.testing.assert_array_equal(draws[0][0], draws[1][0])
    assert draws[0][1] == draws[1][1]
    assert draws[0][2] != draws[1][2] and all(os.path.isdir(d[2]) for d in draws)
    assert os.path.dirname(draws[0][2]) == tg.test.get_temp_dir()


def test_get_temp_dir_is_one_directory_per_test(case):
    assert case.get_temp_dir() == case.get_temp_dir() and os.path.isdir(case.get_temp_dir())


def test_sessions_run_on_the_cpu_unless_a_gpu_is_there_and_asked_for(case):
    with case.session(use_gpu=True) as sess:
        assert sess.device == ("gpu" if tg.test.is_gpu_available() else "cpu")
    if not tg.test.is_gpu_available():
        with pytest.raises(RuntimeError, match="device='gpu' needs CuPy and a CUDA GPU"):
            with case.session(force_gpu=True):
                pass


def test_unittest_runs_the_cases_skips_and_does_not_collect_test_session():
    class Cases(tg.test.TestCase):
        def testPasses(self):
            with self.test_session():
                self.assertAllEqual(tg.constant([1, 2]), [1, 2])

        def testSkips(self):
            self.skipTest("not here")

        def testFails(self):
            self.assertAllClose([1.0], [2.0])

    names = unittest.TestLoader().getTestCaseNames(Cases)
    assert names == ["testFails", "testPasses", "testSkips"]
    result = unittest.TestResult()
    unittest.TestLoader().loadTestsFromTestCase(Cases).run(result)
    assert (result.testsRun, len(result.failures), len(result.skipped), result.errors) == (3, 1, 1, [])
    assert "testFails" in result.failures[0][0].id()


def test_the_mode_decorators_run_once_in_graph_mode():
    seen = []

    class Cases(tg.test.TestCase):
        @test_util.run_in_graph_and_eager_modes
        def testInSession(self):
            seen.append(("session", tg.get_default_session() is not None))

        @test_util.run_deprecated_v1
        def testDeprecated(self):
            seen.append(("v1", True))

        @test_util.run_v1_only("uses graph collections")
        def testV1(self):
            seen.append(("v1_only", True))

    unittest.TestLoader().loadTestsFromTestCase(Cases).run(unittest.TestResult())
    assert sorted(seen) == [("session", True), ("v1", True), ("v1_only", True)]
    with pytest.raises(ValueError, match="only supports test methods"):
        test_util.run_deprecated_v1(Cases)
    with pytest.raises(ValueError, match="`reason` has to be a string"):
        test_util.run_v1_only(lambda self: None)


def test_the_tf1_suites_test_util_helpers_run_skip_or_answer_as_on_a_cpu_without_xla():
    seen = []

    @test_util.for_all_test_methods(test_util.disable_xla, "compiles too slowly")
    class Cases(tg.test.TestCase):
        @test_util.also_run_as_tf_function
        def testOnce(self):
            seen.append("once")

        @test_util.run_v2_only
        def testTF2(self):
            seen.append("tf2")

        def testPlain(self):
            seen.append("plain")

    result = unittest.TestResult()
    unittest.TestLoader().loadTestsFromTestCase(Cases).run(result)
    assert sorted(seen) == ["once", "plain"] and len(result.skipped) == 1 and "TF2-only" in result.skipped[0][1]
    assert (test_util.is_xla_enabled(), test_util.is_mkl_enabled(), test_util.IsMklEnabled()) == (False,) * 3


def test_disable_with_predicate_skips_when_the_predicate_holds_at_run_time():
    seen, skip = [], [False]

    @tg.test.with_eager_op_as_function
    class Cases(tg.test.TestCase):
        @tg.test.disable_with_predicate(lambda: skip[0], "not on this machine")
        def testMaybe(self):
            seen.append("ran")

    for skip[0] in (False, True):
        result = unittest.TestResult()
        unittest.TestLoader().loadTestsFromTestCase(Cases).run(result)
    assert seen == ["ran"] and result.skipped[0][1] == "not on this machine"
    assert tg.test.with_eager_op_as_function(only_as_function=True)(Cases) is Cases
    assert tg.test.is_built_with_xla() is False


def test_the_older_unittest_names_tf_tests_use_still_work_on_every_python(case):
    with case.assertRaisesRegexp(ValueError, "bad.*value"):
        raise ValueError("a bad value")
    case.assertRegexpMatches("shape [2,3]", r"\[2,3\]")
    case.assertNotRegexpMatches("shape [2,3]", "rank")
    case.assertEquals(1, 1)
    case.assertNotEquals(1, 2)
    case.assertAlmostEquals(1.0, 1.0 + 1e-9)
    with pytest.raises(AssertionError):
        case.assertEquals(1, 2)
    with pytest.raises(AssertionError):
        case.assertRegexpMatches("shape", "rank")


def test_raises_with_literal_match_wants_the_exact_message(case):
    with case.assertRaisesWithLiteralMatch(ValueError, "bad value 3"):
        raise ValueError("bad value 3")
    case.assertRaisesWithLiteralMatch(KeyError, "'k'", {}.__getitem__, "k")
    with pytest.raises(AssertionError, match="does not match"):
        with case.assertRaisesWithLiteralMatch(ValueError, "bad value"):
            raise ValueError("bad value 3")
    with pytest.raises(AssertionError, match="ValueError not raised"):
        with case.assertRaisesWithLiteralMatch(ValueError, "x"):
            pass


def test_checked_thread_fails_the_test_on_join_with_the_threads_error(case):
    seen = []
    ok = case.checkedThread(seen.append, args=("ran",))
    ok.start()
    ok.join()
    assert seen == ["ran"] and not ok.is_alive()
    bad = case.checkedThread(lambda: case.assertEqual(1, 2))
    bad.start()
    with pytest.raises(AssertionError, match="Error in checkedThread: 1 != 2"):
        bad.join()


def test_mock_is_unittest_mock():
    assert tg.test.mock is unittest.mock
