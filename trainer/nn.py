"""tg.nn: activations, convolution, pooling, dropout, normalization helpers and the cross-entropy losses."""
from .unsupported import missing_names
from .ops.activation_ops import elu, leaky_relu, relu6, selu, softplus, softsign
from .ops.conv_ops import avg_pool, conv2d, max_pool
from .ops.candidate_sampling_ops import (all_candidate_sampler, compute_accidental_hits,
                                         fixed_unigram_candidate_sampler, learned_unigram_candidate_sampler,
                                         log_uniform_candidate_sampler, uniform_candidate_sampler)
from .ops.sampled_losses import nce_loss, sampled_softmax_loss
from .ops.batch_norm_ops import batch_normalization, fused_batch_norm
from .ops.conv_transpose_ops import conv2d_transpose
from .ops.conv1d_ops import conv1d
from .ops.conv3d_ops import avg_pool3d, conv3d, conv3d_transpose, max_pool3d
from .ops.depthwise_conv_ops import depthwise_conv2d, depthwise_conv2d_native, separable_conv2d
from .ops.gather_ops import in_top_k, top_k
from .ops.lrn_ops import local_response_normalization, lrn
from .ops.zero_fraction_ops import zero_fraction
from .ops.nn_impl import (crelu, embedding_lookup, l2_normalize, moments, swish, weighted_cross_entropy_with_logits,
                          xw_plus_b)
from .ops.nn_ops import (bias_add, l2_loss, log_softmax, relu, sigmoid, sigmoid_cross_entropy_with_logits, softmax,
                         softmax_cross_entropy_with_logits, softmax_cross_entropy_with_logits_v2,
                         sparse_softmax_cross_entropy_with_logits, tanh)
from .ops.dropout_ops import dropout
from .ops.batch_norm_ops import batch_norm_with_global_normalization
from .ops.nn_dispatch import (atrous_conv2d, avg_pool1d, avg_pool2d, avg_pool_v2, conv1d_transpose,
                              conv2d_backprop_filter, conv2d_backprop_input, conv_transpose, convolution,
                              depthwise_conv2d_native_backprop_filter, depthwise_conv2d_native_backprop_input,
                              max_pool1d, max_pool2d, max_pool_v2, pool)
from .ops.nn_dispatch import (depthwise_conv2d_native_backprop_filter as depthwise_conv2d_backprop_filter,
                              depthwise_conv2d_native_backprop_input as depthwise_conv2d_backprop_input)
from .ops.nn_impl import compute_average_loss, log_poisson_loss, relu_layer, scale_regularization_loss
from .ops.nn_impl import swish as silu
from .ops.search_ops import approx_max_k, approx_min_k
from .ops.statistics_ops import normalize_moments, sufficient_statistics, weighted_moments
from .ops.depth_space_ops import depth_to_space, space_to_batch, space_to_depth
from .rnn import rnn_cell  # noqa: E402  (tf.nn.rnn_cell)
from .rnn.rnn import bidirectional_dynamic_rnn, dynamic_rnn, static_bidirectional_rnn, static_rnn  # noqa: E402
from .rnn.raw_rnn import raw_rnn  # noqa: E402

__all__ = ["all_candidate_sampler", "avg_pool", "avg_pool3d", "conv3d", "conv3d_transpose", "depthwise_conv2d",
           "depthwise_conv2d_native", "max_pool3d", "separable_conv2d", "batch_normalization", "bias_add", "bidirectional_dynamic_rnn",
           "compute_accidental_hits", "conv1d", "conv2d", "conv2d_transpose", "crelu", "dropout", "dynamic_rnn", "elu",
           "embedding_lookup", "fixed_unigram_candidate_sampler", "fused_batch_norm", "in_top_k", "l2_loss",
           "l2_normalize", "leaky_relu", "learned_unigram_candidate_sampler", "local_response_normalization",
           "log_softmax", "log_uniform_candidate_sampler", "lrn", "max_pool", "moments", "nce_loss", "raw_rnn",
           "relu", "relu6",
           "rnn_cell", "sampled_softmax_loss", "selu", "sigmoid", "sigmoid_cross_entropy_with_logits", "softmax",
           "softmax_cross_entropy_with_logits", "softmax_cross_entropy_with_logits_v2", "softplus", "softsign",
           "sparse_softmax_cross_entropy_with_logits", "static_bidirectional_rnn", "static_rnn", "swish", "tanh",
           "top_k", "uniform_candidate_sampler", "weighted_cross_entropy_with_logits", "xw_plus_b", "zero_fraction"]
__all__ += ["conv1d_transpose", "conv_transpose", "depthwise_conv2d_backprop_filter", "depthwise_conv2d_backprop_input",
            "depthwise_conv2d_native_backprop_filter", "depthwise_conv2d_native_backprop_input"]
__all__ += ["approx_max_k", "approx_min_k", "atrous_conv2d", "avg_pool1d", "avg_pool2d", "avg_pool_v2", "batch_norm_with_global_normalization",
            "compute_average_loss", "conv2d_backprop_filter", "conv2d_backprop_input", "convolution", "depth_to_space",
            "space_to_batch", "space_to_depth",
            "log_poisson_loss", "max_pool1d", "max_pool2d", "max_pool_v2", "normalize_moments", "pool", "relu_layer",
            "scale_regularization_loss", "silu", "sufficient_statistics", "weighted_moments"]

from .ops.morphology_ops import dilation2d, erosion2d, max_pool_with_argmax  # noqa: E402
from .ops.sparse_embedding_ops import embedding_lookup_sparse, safe_embedding_lookup_sparse  # noqa: E402
from .ops.ctc_ops import collapse_repeated, ctc_greedy_decoder, ctc_loss, ctc_loss_v2  # noqa: E402
from .ops.nn_dispatch import atrous_conv2d_transpose, conv3d_backprop_filter_v2  # noqa: E402
from .ops.nn_dispatch import conv3d_backprop_filter_v2 as conv3d_backprop_filter  # noqa: E402  (TF's alias)

__all__ += ["atrous_conv2d_transpose", "conv3d_backprop_filter", "conv3d_backprop_filter_v2"]
__all__ += ["collapse_repeated", "ctc_greedy_decoder", "ctc_loss", "ctc_loss_v2", "dilation2d",
            "embedding_lookup_sparse", "erosion2d", "max_pool_with_argmax",
            "safe_embedding_lookup_sparse"]

# what tf.nn has and ringflow does not: each fails with why and what to use instead
MISSING = {**dict.fromkeys(["ctc_beam_search_decoder", "ctc_beam_search_decoder_v2", "ctc_unique_labels"],
                           "CTC beam search and unique labels: decode with ctc_greedy_decoder"),
           **dict.fromkeys(["quantized_avg_pool", "quantized_conv2d", "quantized_max_pool", "quantized_relu_x"],
                           "quantized ops: ringflow computes in floating point"),
           **dict.fromkeys(["fractional_avg_pool", "fractional_max_pool"], "fractional pooling: use avg_pool/max_pool"),
           "static_state_saving_rnn": "state-saving RNNs (they need queues): use static_rnn or dynamic_rnn"}
__getattr__ = missing_names(__name__, reasons=MISSING)
