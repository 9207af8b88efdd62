"""tf.autograph.experimental: the directives a program may leave in code that AutoGraph never converts here."""
import enum


class Feature(enum.Enum):
    """The conversion features AutoGraph's optional_features names."""
    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


def do_not_convert(func=None):
    """`func` itself, to be called as Python (as is every function here); without `func`, the decorator."""
    return do_not_convert if func is None else func


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None, shape_invariants=None):
    """Options for the loop around the call, which only AutoGraph's conversion reads: nothing to do unconverted."""
    del parallel_iterations, swap_memory, maximum_iterations, shape_invariants


__all__ = ["Feature", "do_not_convert", "set_loop_options"]
