"""The asserts TF's TestCase inherits from absltest.TestCase (absl-py) beyond unittest's, which TF's own tests and
Horovod's call: assertLen, assertEmpty, assertNotEmpty, assertItemsEqual, assertContainsSubset; and the older
names of unittest's asserts that TF 1.15's tests still use (assertRaisesRegexp, ...), which Python 3.12 dropped."""


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
