"""TF1's op families, one module each (forward, shape inference and gradient side by side), with variables, scopes,
initializers and tg.gradients. Importing this package registers every op type."""
from . import (activation_ops, array_ops, batch_norm_ops, block_lstm_ops, candidate_sampling_ops,  # noqa: F401
               check_ops, clip_ops, control_flow_ops, conv1d_ops, conv_ops, conv_transpose_ops, core_ops, cwise_ops,
               data_flow_ops, division_ops, dropout_ops, file_ops, fill_ops, functional_ops, gather_ops,
               image_decode_ops, io_ops, linalg_ops, logging_ops, lookup_ops, lrn_ops, mask_ops, math_ops, matrix_ops,
               nn_impl, nn_ops, operators, pad_ops, parsing_ops, qr_ops, random_ops, reader_ops, reduction_ops,
               reverse_ops, rnn_ops, sampled_losses, sampling_ops, scan_ops, scatter_ops, segment_ops, set_ops,
               shape_ops, shuffle_ops, slice_ops, sort_ops, sparse_math_ops, sparse_ops, sparse_reduction_ops,
               sparse_slice_ops, stack_ops, state_ops, string_ops, trig_ops, tuple_ops, variables, while_loop_ops,
               zero_fraction_ops)
from . import (bitwise_ops, complex_ops, depth_space_ops, diag_ops, gather_nd_ops, index_ops,  # noqa: F401,E402
               nn_dispatch, partition_ops, search_ops, segment_reduce_ops, shape_functions, signal_ops, solve_ops,
               special_ops, spectral_ops, statistics_ops, type_checks)
from . import encoding_ops  # noqa: F401,E402  (tf.io's base64, decompression and serialized tensors)
from . import mutable_lookup_ops  # noqa: F401,E402  (tf.lookup.experimental's tables)
from . import shape_assertions  # noqa: F401,E402  (tf.debugging.assert_shapes)
from . import lu_ops, matrix_function_ops, tridiagonal_ops  # noqa: F401,E402  (tf.linalg's LU, sqrtm, tridiagonal)
from . import incomplete_gamma_ops  # noqa: F401,E402  (igamma, betainc, the Bessel I functions)
from . import sparse_embedding_ops  # noqa: F401,E402  (tf.nn's embedding_lookup_sparse)
from . import sparse_merge_ops  # noqa: F401,E402  (tf.sparse.merge)
from . import sparse_map_ops  # noqa: F401,E402  (SparseTensors through queues: tf.train.batch's)
from . import unicode_ops  # noqa: F401,E402  (tf.strings' unicode_encode, unicode_transcode)
from . import ctc_ops  # noqa: F401,E402  (tf.nn's CTC loss and greedy decoder)
from . import morphology_ops  # noqa: F401,E402  (tf.nn's dilation2d, erosion2d, max_pool_with_argmax)
from . import quantize_ops  # noqa: F401,E402  (tf.quantization's simulated quantization)
from . import batch_matmul_ops  # noqa: F401,E402  (tf.matmul of batches: math_ops builds it by name)
from . import (audio_ops, bitcast_ops, custom_gradient, fingerprint_ops, gamma_poisson_ops,  # noqa: F401,E402
               script_ops, stateless_random_ops, tf_user_ops)
from . import not_differentiable  # noqa: F401,E402  (after every op type it marks is registered)
from . import tensor_array_ops  # noqa: F401,E402  (the TensorArray ops of the loops TF writes)
