"""Keras' dot-product (Luong) and additive (Bahdanau) attention over [query, value] or [query, value, key], with
the query and value masks and the causal mask of decoder self-attention."""
from ...ops.array_ops import cast
from ...ops.mask_ops import matrix_band_part
from ...ops.math_ops import matmul
from ...ops.nn_ops import softmax, tanh
from ...ops.reduction_ops import reduce_sum
from ...ops.shape_ops import expand_dims
from .. import backend as K
from ..engine.base_layer import Layer

# What TF 1.15 subtracts from the scores of masked positions, so softmax gives them weight 0.
MASKED_SCORE = 1.e9


def check_attention_call(layer, inputs, mask):
    name = type(layer).__name__
    if not isinstance(inputs, list) or not 2 <= len(inputs) <= 3:
        raise ValueError(f"{name} layer must be called on a list of inputs, namely [query, value] or "
                         f"[query, value, key]; got {inputs!r}")
    if mask and (not isinstance(mask, list) or len(mask) != 2):
        raise ValueError(f"{name} layer mask must be a list of length 2, namely [query_mask, value_mask]; got "
                         f"{mask!r}")


class BaseDenseAttention(Layer):
    """softmax(scores(query, key)) @ value; subclasses give scores. Masked values and, with causal=True, later
    steps get no weight; masked queries give zeros."""

    def __init__(self, causal=False, **kwargs):
        super().__init__(**kwargs)
        self.causal = causal
        self.supports_masking = True

    def scores(self, query, key):
        raise NotImplementedError(f"{type(self).__name__} must define scores(query, key) -> [batch, Tq, Tv]")

    def call(self, inputs, mask=None):
        check_attention_call(self, inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask, value_mask = mask if mask else (None, None)
        scores = self.scores(query, key)
        keep = None
        if value_mask is not None:
            keep = expand_dims(cast(value_mask, K.floatx()), -2)
        if self.causal:
            lower = matrix_band_part(K.ones_like(scores), -1, 0)
            keep = lower if keep is None else keep * lower
        if keep is not None:
            scores -= MASKED_SCORE * (1. - keep)
        result = matmul(softmax(scores), value)
        if query_mask is not None:
            result *= expand_dims(cast(query_mask, result.dtype), -1)
        return result

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[0][:-1]) + (input_shape[1][-1],)

    def compute_mask(self, inputs, mask=None):
        check_attention_call(self, inputs, mask)
        return mask[0] if mask else None

    def get_config(self):
        return dict(super().get_config(), causal=self.causal)


class Attention(BaseDenseAttention):
    """Dot-product attention: scores = query @ key^T, times a trainable scalar `scale` (initially 1) when
    use_scale."""

    def __init__(self, use_scale=False, **kwargs):
        super().__init__(**kwargs)
        self.use_scale = use_scale

    def build(self, input_shape):
        self.scale = self.add_weight("scale", (), initializer="ones") if self.use_scale else None
        self.built = True

    def scores(self, query, key):
        scores = matmul(query, key, transpose_b=True)
        return scores * self.scale if self.scale is not None else scores

    def get_config(self):
        return dict(super().get_config(), use_scale=self.use_scale)


class AdditiveAttention(BaseDenseAttention):
    """Additive attention: scores = sum(scale * tanh(query_i + key_j)) over the last axis, `scale` a trainable
    vector of the value's depth (Glorot-uniform) when use_scale, else ones."""

    def __init__(self, use_scale=True, **kwargs):
        super().__init__(**kwargs)
        self.use_scale = use_scale

    def build(self, input_shape):
        dim = input_shape[1][-1]
        if self.use_scale and dim is None:
            raise ValueError(f"AdditiveAttention needs the value's last dimension to make its scale; got input shapes "
                             f"{input_shape!r}")
        self.scale = self.add_weight("scale", (dim,), initializer="glorot_uniform") if self.use_scale else None
        self.built = True

    def scores(self, query, key):
        summed = tanh(expand_dims(query, -2) + expand_dims(key, -3))
        return reduce_sum(summed * self.scale if self.scale is not None else summed, axis=-1)

    def get_config(self):
        return dict(super().get_config(), use_scale=self.use_scale)
