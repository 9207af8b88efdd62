"""TF's TestCase.checkedThread: a thread whose exception fails the test when it is joined, so an assert inside a
thread (a queue consumer, a second session) is not lost in the thread's own stderr."""
import threading


class CheckedThread:
    """A thread running target(*args, **kwargs) for `testcase`; join() fails the test if the target raised."""

    def __init__(self, testcase, target, args=None, kwargs=None):
        self._testcase, self._target = testcase, target
        self._args, self._kwargs = tuple(args or ()), dict(kwargs or {})
        self._thread = threading.Thread(target=self._protected_run)
        self._exception = None

    def _protected_run(self):
        try:
            self._target(*self._args, **self._kwargs)
        except Exception as error:  # the test's failure, reported on join in the test's own thread
            self._exception = error

    def start(self):
        self._thread.start()

    def join(self):
        """Wait for the thread; fail the test with its exception, if it raised one."""
        self._thread.join()
        if self._exception is not None:
            self._testcase.fail(f"Error in checkedThread: {self._exception}")

    def is_alive(self):
        return self._thread.is_alive()
