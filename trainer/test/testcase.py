"""tf.test.TestCase: unittest's TestCase with TF1's sessions, a fresh default graph per test, and the array asserts
of TF 1.15's test_util.TensorFlowTestCase (tolerances, messages and nested-structure rules as TF's)."""
import contextlib
import functools
import math
import random
import re
import tempfile
import unittest

import numpy as np

from ..client.session import Session
from ..framework import dtypes
from ..framework.graph import reset_default_graph
from ..framework.random_seed import DEFAULT_GRAPH_SEED, set_random_seed
from ..framework.stacks import get_default_session
from ..framework.tensor import Tensor
from ..platform import errors
from .absl_asserts import AbslAsserts
from .checked_thread import CheckedThread
from .environment import get_temp_dir, session_device


class _NotATest:
    """A method that unittest's loader (pytest's too) does not collect although its name starts with "test":
    TF's test_session would otherwise run as a test of every TestCase."""

    def __init__(self, method):
        self.method = method
        functools.update_wrapper(self, method)

    def __get__(self, instance, owner):
        return self if instance is None else self.method.__get__(instance, owner)


class TestCase(AbslAsserts, unittest.TestCase):
    """Base class for tests of TF1 graphs (TF1's tf.test.TestCase)."""

    def __init__(self, methodName="runTest"):
        super().__init__(methodName)
        self._tempdir = None
        self._cached = None  # (session, graph, config, force_gpu) of cached_session, closed in tearDown

    def setUp(self):
        # As TF: every test starts from a new default graph and the same seeds, so tests do not see each other.
        self._close_cached_session()
        random.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        reset_default_graph()
        set_random_seed(DEFAULT_GRAPH_SEED)

    def tearDown(self):
        self._close_cached_session()

    def _close_cached_session(self):
        if self._cached is not None:
            self._cached[0].close()
            self._cached = None

    def get_temp_dir(self):
        """A temporary directory of this test (inside tg.test.get_temp_dir()), the same one on every call."""
        if not self._tempdir:
            self._tempdir = tempfile.mkdtemp(dir=get_temp_dir())
        return self._tempdir

    # sessions ---------------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
        """A new Session (on `graph`, default: the default graph) made the default one inside the block, and
        closed at its end."""
        sess = Session(graph=graph, config=config, device=session_device(use_gpu, force_gpu))
        try:
            with self._as_default(sess):
                yield sess
        finally:
            sess.close()

    @contextlib.contextmanager
    def cached_session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
        """The session of this test, made on first use and closed in tearDown; asking again with another
        graph, config or force_gpu is a ValueError, as in TF."""
        with self._as_default(self._cached_session(graph, config, use_gpu, force_gpu, strict=True)) as sess:
            yield sess

    @_NotATest
    @contextlib.contextmanager
    def test_session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
        """TF1's older name: the cached session when `graph` is None, else a new session on `graph`."""
        if graph is not None:
            with self.session(graph, config, use_gpu, force_gpu) as sess:
                yield sess
            return
        with self._as_default(self._cached_session(None, config, use_gpu, force_gpu, strict=False)) as sess:
            yield sess

    def _cached_session(self, graph, config, use_gpu, force_gpu, strict):
        if self._cached is None:
            sess = Session(graph=graph, config=config, device=session_device(use_gpu, force_gpu))
            self._cached = (sess, graph, config, force_gpu)
        elif strict:
            for what, old, new in zip(("graph", "config", "force_gpu"), self._cached[1:], (graph, config, force_gpu)):
                if old is not new:
                    raise ValueError(f"The {what} used to get the cached session ({new!r}) is different than the "
                                     f"one that was used to create the session ({old!r}). Maybe create a new "
                                     "session with self.session()")
        return self._cached[0]

    @staticmethod
    @contextlib.contextmanager
    def _as_default(sess):
        with sess.graph.as_default(), sess.as_default():
            yield sess

    def evaluate(self, tensors):
        """The values of a Tensor or nested structure of Tensors, run in the default session (else this test's
        cached session)."""
        sess = get_default_session()
        if sess is not None:
            return sess.run(tensors)
        with self.test_session() as sess:
            return sess.run(tensors)

    def _array(self, a):
        if isinstance(a, Tensor):
            a = self.evaluate(a)
        return a if isinstance(a, np.ndarray) else np.array(a)

    # closeness --------------------------------------------------------------------------------------------

    def assertNear(self, f1, f2, err, msg=None):
        """|f1 - f2| <= err (inf == inf passes)."""
        self.assertTrue(f1 == f2 or math.fabs(f1 - f2) <= err,
                        "%f != %f +/- %f%s" % (f1, f2, err, f" ({msg})" if msg is not None else ""))

    def assertArrayNear(self, farray1, farray2, err, msg=None):
        """Same length and assertNear element by element."""
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):
        """The Euclidean norm of the difference is below err."""
        self.assertTrue(np.linalg.norm(ndarray1 - ndarray2) < err, msg=msg)

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        """a and b (arrays, Tensors, or nested dicts/lists/tuples/namedtuples of them) are elementwise within
        atol + rtol * |b|; NaN matches NaN."""
        self._assert_close_nested(a, b, rtol, atol, [], msg or "")

    def _assert_close_nested(self, a, b, rtol, atol, path, msg):
        where = "".join(f"[{p}]" for p in path)
        a, b = (x._asdict() if hasattr(x, "_asdict") else x for x in (a, b))
        if isinstance(a, dict) != isinstance(b, dict):
            raise ValueError(f"Can't compare dict to non-dict, a{where} vs b{where}. {msg}")
        if isinstance(a, dict):
            self.assertCountEqual(a.keys(), b.keys(), msg=f"mismatched keys: a{where} has keys {list(a)}, but "
                                                          f"b{where} has keys {list(b)}. {msg}")
            for k in a:
                self._assert_close_nested(a[k], b[k], rtol, atol, path + [k], msg)
            return
        mismatch = f"Mismatched value: a{where} is different from b{where}. {msg}"
        if isinstance(a, (list, tuple)):
            try:  # arrays first, as TF: one comparison where the sequence is array-like
                arrays = self._array(a), self._array(b)
                if arrays[0].dtype == object or arrays[1].dtype == object:
                    raise TypeError("ragged")
            except (ValueError, TypeError):
                if len(a) != len(b):
                    raise ValueError(f"Mismatched length: a{where} has {len(a)} items, but b{where} has "
                                     f"{len(b)} items. {msg}") from None
                for i, (x, y) in enumerate(zip(a, b)):
                    self._assert_close_nested(x, y, rtol, atol, path + [i], msg)
                return
            self._assert_arrays_close(*arrays, rtol, atol, mismatch)
            return
        self._assert_arrays_close(self._array(a), self._array(b), rtol, atol, mismatch)

    def _assert_arrays_close(self, a, b, rtol, atol, msg):
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. {msg}")
        if not np.allclose(a, b, rtol=rtol, atol=atol):
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=msg, equal_nan=True)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6, float_atol=1e-6,
                                      half_rtol=1e-3, half_atol=1e-3, bfloat16_rtol=1e-2, bfloat16_atol=1e-2,
                                      msg=None):
        """assertAllClose with at least the tolerance of the least precise dtype of a and b (TF's per-dtype
        defaults: 1e-6 for float32/complex64, 1e-3 for float16, 1e-2 for bfloat16)."""
        a, b = self._array(a), self._array(b)
        names = {a.dtype.name, b.dtype.name}
        for kinds, kind_rtol, kind_atol in ((("float32", "complex64"), float_rtol, float_atol),
                                            (("float16",), half_rtol, half_atol),
                                            (("bfloat16",), bfloat16_rtol, bfloat16_atol)):
            if names.intersection(kinds):
                rtol, atol = max(rtol, kind_rtol), max(atol, kind_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, **kwargs):
        """Some element of a is not close to b's."""
        try:
            self.assertAllClose(a, b, **kwargs)
        except AssertionError:
            return
        raise AssertionError("The two values are close at all elements")

    def assertAllEqual(self, a, b, msg=None):
        """Same shape and equal elements; NaN equals NaN in floating arrays."""
        msg = msg or ""
        a, b = self._array(a), self._array(b)
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. {msg}")
        same = a == b
        if a.dtype.kind == "f":
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        if not np.all(same):
            np.testing.assert_array_equal(a, b, err_msg=msg)

    def assertNotAllEqual(self, a, b, msg=None):
        """Some element differs (or the shapes do)."""
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        raise AssertionError(f"The two values are equal at all elements. {msg or ''}")

    def checkedThread(self, target, args=None, kwargs=None):  # noqa: N802  (TF's name)
        """A thread running target whose exception fails this test when the thread is joined."""
        return CheckedThread(self, target, args, kwargs)

    # ranges and types --------------------------------------------------------------------------------------

    def assertAllGreater(self, a, comparison_target):
        self.assertGreater(np.min(self._array(a)), comparison_target)

    def assertAllLess(self, a, comparison_target):
        self.assertLess(np.max(self._array(a)), comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):
        self.assertGreaterEqual(np.min(self._array(a)), comparison_target)

    def assertAllLessEqual(self, a, comparison_target):
        self.assertLessEqual(np.max(self._array(a)), comparison_target)

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False, open_upper_bound=False):
        """Every element is a number (not NaN) within the bounds, closed unless open_*_bound."""
        target = self._array(target)
        if target.dtype.kind not in "fiu":
            raise AssertionError(f"The value of {target} does not have an ordered numeric type, instead it has "
                                 f"type: {target.dtype}")
        nans = np.argwhere(np.isnan(target)) if target.dtype.kind == "f" else []
        if len(nans):
            raise AssertionError(f"{len(nans)} of the {target.size} element(s) are NaN, at {nans.tolist()[:10]}")
        low = target <= lower_bound if open_lower_bound else target < lower_bound
        high = target >= upper_bound if open_upper_bound else target > upper_bound
        outside = np.argwhere(low | high)
        if len(outside):
            bounds = f"{'(' if open_lower_bound else '['}{lower_bound}, {upper_bound}{')' if open_upper_bound else ']'}"
            shown = ", ".join(f"{tuple(i)}: {target[tuple(i)]}" for i in outside[:10])
            raise AssertionError(f"{len(outside)} of the {target.size} element(s) are outside the range {bounds}. "
                                 f"Subscript(s) and value(s) of the offending elements: {shown}")

    def assertAllInSet(self, target, expected_set):
        diff = np.setdiff1d(self._array(target).flatten(), list(expected_set))
        if np.size(diff):
            raise AssertionError(f"{np.size(diff)} unique element(s) are not in the set {expected_set}: {diff}")

    def assertDTypeEqual(self, target, expected_dtype):
        """target's values have the dtype expected_dtype (a numpy dtype or a tg DType)."""
        self.assertEqual(dtypes.as_dtype(self._array(target).dtype), dtypes.as_dtype(expected_dtype))

    def assertShapeEqual(self, np_array, tf_tensor, msg=None):
        """A numpy array (or scalar) and a Tensor have the same static shape."""
        if not isinstance(np_array, (np.ndarray, np.generic)):
            raise TypeError(f"np_array must be a Numpy ndarray or Numpy scalar, got {type(np_array).__name__}")
        if not isinstance(tf_tensor, Tensor):
            raise TypeError(f"tf_tensor must be a Tensor, got {type(tf_tensor).__name__}")
        self.assertAllEqual(np_array.shape, tf_tensor.get_shape().as_list(), msg=msg)

    def assertStartsWith(self, actual, expected_start, msg=None):
        if not actual.startswith(expected_start):
            self.fail(f"{actual!r} does not start with {expected_start!r}" + (f" : {msg!r}" if msg else ""))

    # errors -----------------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):
        """The block raises exception_type, and the predicate holds on it (or the regular expression is found in
        its message; an OpError's message is followed by "Caused by: <op name>")."""
        predicate = expected_err_re_or_predicate
        if not callable(predicate):
            def predicate(e):
                text = e.message if isinstance(e, errors.OpError) else str(e)
                if isinstance(e, errors.OpError) and e.op is not None:
                    text += "\nCaused by: " + e.op.name
                return re.search(expected_err_re_or_predicate, text)
        try:
            yield
        except Exception as e:  # the predicate decides, whatever was raised
            if not isinstance(e, exception_type) or not predicate(e):
                raise AssertionError(f"Exception of type {type(e)}: {e}") from e
        else:
            self.fail(exception_type.__name__ + " not raised")

    def assertRaisesOpError(self, expected_err_re_or_predicate):
        """The block raises a tg.errors.OpError that matches (see assertRaisesWithPredicateMatch)."""
        return self.assertRaisesWithPredicateMatch(errors.OpError, expected_err_re_or_predicate)

    assertRaisesRegexp = unittest.TestCase.assertRaisesRegex  # TF1 tests use the Python 2 names
    assertItemsEqual = unittest.TestCase.assertCountEqual
