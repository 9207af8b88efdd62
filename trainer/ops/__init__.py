"""Op definitions; importing this package registers every op type."""
from . import core_ops, math_ops, operators, random_ops, state_ops  # noqa: F401
