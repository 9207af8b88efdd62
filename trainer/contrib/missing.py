"""The tf.contrib libraries ringflow does not implement, each with what to use instead.

`tf.contrib.<name>` raises NotInRingflow (an AttributeError, so hasattr() answers False) with the reason;
trainer.as_tensorflow raises ImportError with the same reason for `import tensorflow.contrib.<name>`.
"""
_DATA = "use tf.data (Dataset and its iterators)"
MISSING = {
    "crf": "conditional random fields", "cudnn_rnn": "cuDNN RNNs: use tf.contrib.rnn.LSTMBlockCell or "
    "tf.nn.rnn_cell.LSTMCell with tf.nn.dynamic_rnn", "data": _DATA, "distribute": "use ringflow's "
    "DistributedOptimizer or trainer.horovod", "distributions": "probability distributions",
    "eager": "eager execution (graph mode is the only mode)",
    "gan": "TF-GAN",
    "graph_editor": "graph editing", "grid_rnn": "grid RNN cells", "image": "use tf.image", "input_pipeline": _DATA,
    "keras": "use tf.keras", "kernel_methods": "kernel methods", "labeled_tensor": "labeled tensors",
    "legacy_seq2seq": "legacy seq2seq models", "linear_optimizer": "SDCA linear optimizers",
    "memory_stats": "memory statistics ops",
    "mixed_precision": "mixed-precision loss scaling", "model_pruning": "model pruning",
    "nccl": "use allreduce.create_communicator('nccl') or `ringflow train --allreduce nccl`", "nn": "use tf.nn",
    "opt": "use the tf.train optimizers", "predictor": "predictors (saved models)", "quantization": "quantization",
    "quantize": "quantization-aware training", "recurrent": "functional recurrent ops: use tf.nn.dynamic_rnn",
    "resampler": "resampling ops", "saved_model": "saved models: save variables with tf.train.Saver",
"signal": "signal processing ops", "solvers": "linear solvers",
    "sparsemax": "sparsemax", "staging": "staging areas", "stateless": "stateless random ops",
    "summary": "use tf.summary", "tensor_forest": "random forests", "text": "text ops", "tfprof": "tfprof: trace "
    "steps with RunOptions(trace_level=FULL_TRACE) and tensorflow.python.client.timeline",
    "timeseries": "time-series models", "tpu": "TPUs", "training": "contrib.training (HParams, bucketing, "
    "resampling)", "util": "contrib.util",
}
