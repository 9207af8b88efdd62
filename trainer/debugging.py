"""tg.debugging: TF1's tf.debugging namespace, aliases of the run-time checks and the finiteness tests."""
from .ops.check_ops import (Assert, assert_equal, assert_greater, assert_greater_equal, assert_integer, assert_less,
                            assert_less_equal, assert_negative, assert_non_negative, assert_non_positive,
                            assert_none_equal, assert_positive, assert_rank, assert_type, check_numerics)
from .ops.cwise_ops import is_finite, is_inf, is_nan

__all__ = ["Assert", "assert_equal", "assert_greater", "assert_greater_equal", "assert_integer", "assert_less",
           "assert_less_equal", "assert_negative", "assert_non_negative", "assert_non_positive",
           "assert_none_equal", "assert_positive", "assert_rank", "assert_type", "check_numerics", "is_finite",
           "is_inf", "is_nan"]

from .ops.check_ops import is_non_decreasing, is_strictly_increasing

__all__ += ["is_non_decreasing", "is_strictly_increasing"]
from .ops.type_checks import (assert_near, assert_proper_iterable, assert_rank_at_least, assert_rank_in,
                              assert_same_float_dtype, assert_scalar, is_numeric_tensor,
                              verify_tensor_all_finite as assert_all_finite)

__all__ += ["assert_all_finite", "assert_near", "assert_proper_iterable", "assert_rank_at_least", "assert_rank_in",
            "assert_same_float_dtype", "assert_scalar", "is_numeric_tensor"]

from .config.settings import get_log_device_placement, set_log_device_placement  # noqa: E402

__all__ += ["get_log_device_placement", "set_log_device_placement"]

from .ops.shape_assertions import assert_shapes  # noqa: E402

__all__ += ["assert_shapes"]
