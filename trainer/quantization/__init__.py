"""tg.quantization: TF1's tf.quantization, quantization simulated on float tensors (fake_quant_*,
quantize_and_dequantize). The ops that produce quantized dtypes (qint8, quint8, ...) are not here: ringflow has no
quantized dtypes."""
from ..ops.quantize_ops import (fake_quant_with_min_max_args, fake_quant_with_min_max_args_gradient,
                                fake_quant_with_min_max_vars, fake_quant_with_min_max_vars_gradient,
                                fake_quant_with_min_max_vars_per_channel,
                                fake_quant_with_min_max_vars_per_channel_gradient, quantize_and_dequantize,
                                quantize_and_dequantize_v2)
from ..unsupported import missing_names

__all__ = ["fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient", "fake_quant_with_min_max_vars",
           "fake_quant_with_min_max_vars_gradient", "fake_quant_with_min_max_vars_per_channel",
           "fake_quant_with_min_max_vars_per_channel_gradient", "quantize_and_dequantize",
           "quantize_and_dequantize_v2"]

QUANTIZED = ("quantized dtypes (qint8, quint8, qint32, ...): simulate quantization on floats with "
             "fake_quant_with_min_max_vars or quantize_and_dequantize")
__getattr__ = missing_names(__name__, reasons=dict.fromkeys(
    ["quantize", "dequantize", "quantized_concat", "experimental"], QUANTIZED))
