"""weighted_cross_entropy_with_logits against its closed form."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op

RNG = np.random.default_rng(7)


def test_weighted_cross_entropy_with_logits():
    x, z = RNG.standard_normal((3, 4)) * 3, RNG.uniform(size=(3, 4))

    def reference(a, b, q=2.5):
        s = 1 / (1 + np.exp(-a))
        return -(q * b * np.log(s) + (1 - b) * np.log(1 - s))

    check_op(lambda t, u: tg.nn.weighted_cross_entropy_with_logits(labels=u, logits=t, pos_weight=2.5), [x, z],
             numpy_fn=reference)
    check_op(lambda t, u: tg.nn.weighted_cross_entropy_with_logits(targets=u, logits=t, pos_weight=0.5), [x, z],
             numpy_fn=lambda a, b: reference(a, b, 0.5))
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="`labels` or `targets`"):
            tg.nn.weighted_cross_entropy_with_logits(logits=x, pos_weight=1.0)
