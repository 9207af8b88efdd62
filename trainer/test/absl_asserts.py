"""The asserts TF's TestCase inherits from absltest.TestCase (absl-py) beyond unittest's, which TF's own tests and
Horovod's call: assertLen, assertEmpty, assertNotEmpty, assertItemsEqual, assertContainsSubset, assertSameElements,
assertBetween, assertRaisesWithLiteralMatch; and the older names of unittest's asserts that TF 1.15's tests still
use (assertRaisesRegexp, ...), which Python 3.12 dropped."""


class AbslAsserts:
    """A mixin for tf.test.TestCase: absltest's container asserts, with its messages."""

    def assertLen(self, container, expected_len, msg=None):
        """len(container) == expected_len."""
        if len(container) != expected_len:
            self.fail(self._formatMessage(msg, f"{container!r} has length of {len(container)}, expected "
                                               f"{expected_len}."))

    def assertEmpty(self, container, msg=None):
        """container has no elements."""
        if len(container):
            self.fail(self._formatMessage(msg, f"{container!r} has length of {len(container)}."))

    def assertNotEmpty(self, container, msg=None):
        """container has at least one element."""
        if not len(container):
            self.fail(self._formatMessage(msg, f"{container!r} has length of 0."))

    def assertItemsEqual(self, expected_seq, actual_seq, msg=None):
        """The same elements, each as often, in any order (Python 2's name of assertCountEqual)."""
        self.assertCountEqual(expected_seq, actual_seq, msg)

    def assertContainsSubset(self, expected_subset, actual_set, msg=None):
        """Every element of expected_subset is in actual_set."""
        missing = [item for item in expected_subset if item not in actual_set]
        if missing:
            self.fail(self._formatMessage(msg, f"Missing elements {missing!r}; expected subset {expected_subset!r} "
                                               f"of {actual_set!r}"))

    def assertSameElements(self, expected_seq, actual_seq, msg=None):
        """The same set of elements, ignoring order and repeats."""
        if set(expected_seq) != set(actual_seq):
            self.fail(self._formatMessage(msg, f"Expected {set(expected_seq)!r}, found {set(actual_seq)!r}"))

    def assertBetween(self, value, minv, maxv, msg=None):
        """minv <= value <= maxv."""
        if not minv <= value <= maxv:
            self.fail(self._formatMessage(msg, f"{value!r} is not between {minv!r} and {maxv!r}"))

    def assertRaisesWithLiteralMatch(self, expected_exception, expected_message, *args, **kwargs):
        """The exception's str() is exactly expected_message (as a context manager without callable)."""
        context = _LiteralMatch(self, expected_exception, expected_message)
        if not args:
            return context
        with context:
            args[0](*args[1:], **kwargs)
        return None

    # unittest's names before Python 3.2, removed in 3.12: TF 1.15's own tests are written with them
    def assertRaisesRegexp(self, *args, **kwargs):
        return self.assertRaisesRegex(*args, **kwargs)

    def assertRegexpMatches(self, *args, **kwargs):
        return self.assertRegex(*args, **kwargs)

    def assertNotRegexpMatches(self, *args, **kwargs):
        return self.assertNotRegex(*args, **kwargs)

    def assertEquals(self, *args, **kwargs):
        return self.assertEqual(*args, **kwargs)

    def assertNotEquals(self, *args, **kwargs):
        return self.assertNotEqual(*args, **kwargs)

    def assertAlmostEquals(self, *args, **kwargs):
        return self.assertAlmostEqual(*args, **kwargs)


class _LiteralMatch:
    def __init__(self, testcase, expected_exception, expected_message):
        self.testcase, self.expected_exception, self.expected_message = testcase, expected_exception, expected_message

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.testcase.fail(f"{self.expected_exception.__name__} not raised")
        if not issubclass(exc_type, self.expected_exception):
            return False
        if str(exc) != self.expected_message:
            self.testcase.fail(f"Exception message does not match.\nExpected: {self.expected_message!r}\n"
                               f"Actual: {str(exc)!r}")
        return True
