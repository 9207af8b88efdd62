"""Op definitions; importing this package registers every op type."""
from . import (array_ops, conv_ops, core_ops, math_ops, nn_ops, operators, random_ops,  # noqa: F401
               reduction_ops, state_ops)
from . import control_flow_ops  # noqa: F401,E402
from . import activation_ops, clip_ops, elementwise_ops, gather_ops, nn_impl, shape_ops  # noqa: F401,E402
from . import (batch_norm_ops, check_ops, conv_transpose_ops, linalg_ops, logging_ops, scan_ops,  # noqa: F401,E402
               scatter_ops, segment_ops, shuffle_ops)
from . import conv1d_ops, matrix_ops, nn_more_ops, reverse_ops, sampling_ops, sort_ops  # noqa: F401,E402
from . import lrn_ops  # noqa: F401,E402
from . import division_ops, mask_ops, qr_ops, slice_ops, trig_ops  # noqa: F401,E402
from . import not_differentiable  # noqa: F401,E402  (after every op type it marks is registered)
