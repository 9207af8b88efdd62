"""Multi-label classification: independent sigmoid outputs, sigmoid cross-entropy, micro-F1 reported."""
import trainer as tg

from .layers import dense, flatten
from .spec import ModelSpec, require


def build(features, labels, task, seed=0, hidden=(64,)):
    require("multilabel", task, "multilabel")
    x = flatten(features)
    for i, units in enumerate(hidden):
        x = dense(x, units, f"hidden{i + 1}", activation=tg.nn.relu, seed=seed + i)
    logits = dense(x, task.num_outputs, "logits", seed=seed + len(hidden))
    loss = tg.reduce_mean(tg.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits))
    # A label is predicted when its probability reaches 0.5, i.e. its logit is >= 0.
    predicted = tg.cast(tg.equal(tg.maximum(logits, tg.constant(0, dtype=logits.dtype)), logits), logits.dtype)

    def per_sample(x):  # counts per sample, so shard means weighted by shard size add up exactly
        return tg.reduce_mean(tg.reduce_sum(x, axis=1))
    metrics = {"tp": per_sample(predicted * labels), "fp": per_sample(predicted * (1 - labels)),
               "fn": per_sample((1 - predicted) * labels)}
    return ModelSpec(loss=loss, predictions=predicted, metrics=metrics, report=micro_f1)


def micro_f1(m):
    """F1 over all (sample, label) decisions pooled: 2·TP / (2·TP + FP + FN)."""
    denominator = 2 * m["tp"] + m["fp"] + m["fn"]
    return {"micro_f1": 2 * m["tp"] / denominator if denominator else 1.0}
