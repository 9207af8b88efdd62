"""tensorflow.python.ops.gradient_checker_v2: compute_gradient(f, xs) and max_error (trainer/test's)."""
# ruff: noqa: F401
from ...test.gradient_checker_v2 import compute_gradient, max_error
