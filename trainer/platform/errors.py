"""Errors raised while running a graph (TF1's tf.errors): every one is an OpError, with TF1's error codes."""


class OpError(Exception):
    """A graph run failed. Made as TF1 makes them, OpError(node_def, op, message), or from a message alone."""

    error_code = 2  # UNKNOWN

    def __init__(self, node_def=None, op=None, message=None, error_code=None):
        if message is None and op is None and isinstance(node_def, str):
            node_def, message = None, node_def
        super().__init__(message)
        self.node_def, self.op = node_def, op
        if error_code is not None:
            self.error_code = error_code

    @property
    def message(self):
        return self.args[0] if self.args else ""


class FailedPreconditionError(OpError, RuntimeError):
    """The graph cannot run yet, e.g. a variable is read before it was initialized."""


class NotFoundError(OpError, LookupError):
    """Something asked for does not exist, e.g. a checkpoint file or a key in it (TF1's tf.errors.NotFoundError)."""


class InvalidArgumentError(OpError, ValueError):
    """A value does not fit where it goes, e.g. a restored tensor's shape (TF1's tf.errors.InvalidArgumentError)."""


def _error(name, code, doc):
    return type(name, (OpError,), {"__doc__": doc, "error_code": code, "__module__": __name__})


# TF1's remaining canonical errors, by their error codes (tensorflow/core/protobuf/error_codes.proto).
CancelledError = _error("CancelledError", 1, "An operation or step was cancelled.")
UnknownError = _error("UnknownError", 2, "An error with no better category.")
DeadlineExceededError = _error("DeadlineExceededError", 4, "A deadline passed before the operation finished.")
AlreadyExistsError = _error("AlreadyExistsError", 6, "Something to be created already exists.")
PermissionDeniedError = _error("PermissionDeniedError", 7, "The caller may not run this operation.")
ResourceExhaustedError = _error("ResourceExhaustedError", 8, "Memory or another resource ran out.")
AbortedError = _error("AbortedError", 10, "The operation was aborted, e.g. by a concurrent action; retrying may work.")
OutOfRangeError = _error("OutOfRangeError", 11, "An input was read past its end: the data is exhausted.")
UnimplementedError = _error("UnimplementedError", 12, "The operation is not implemented or not supported here.")
InternalError = _error("InternalError", 13, "An invariant of the system broke.")
UnavailableError = _error("UnavailableError", 14, "A service is unavailable for now; retrying may work.")
DataLossError = _error("DataLossError", 15, "Data was lost or corrupted beyond recovery.")
UnauthenticatedError = _error("UnauthenticatedError", 16, "The request has no valid credentials.")
FailedPreconditionError.error_code = 9
NotFoundError.error_code = 5
InvalidArgumentError.error_code = 3

# the codes themselves (tf.errors.OK, ...), and the two tables TF1 keeps between codes and classes
(OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS, PERMISSION_DENIED,
 RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS,
 UNAUTHENTICATED) = range(17)
_CLASSES = {cls.error_code: cls for cls in (
    CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError, AlreadyExistsError,
    PermissionDeniedError, ResourceExhaustedError, FailedPreconditionError, AbortedError, OutOfRangeError,
    UnimplementedError, InternalError, UnavailableError, DataLossError, UnauthenticatedError)}


def exception_type_from_error_code(error_code):
    """The OpError subclass of a canonical error code (KeyError for a code that has none, as in TF1)."""
    return _CLASSES[error_code]


def error_code_from_exception_type(cls):
    """The canonical error code of an OpError subclass (KeyError for any other class, as in TF1)."""
    return {c: code for code, c in _CLASSES.items()}[cls]
