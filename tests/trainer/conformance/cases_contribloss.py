"""tf.contrib.losses and tf.contrib.metrics against the tf.losses and tf.metrics calls TF 1.15 builds them from.

TF 2.15 has no tf.contrib, so each case is one pair: ringflow builds the contrib call (predictions first, contrib's
weights), TensorFlow the core call TF 1.15's contrib source amounts to, with the arguments mapped as it maps them
(labels first; [batch] weights on [batch, d] losses as a [batch, 1] column; hinge_loss unreduced and uncollected;
a streaming metric's update op run once). The module a case is built in says which side it is: only ringflow's has
tf.contrib.losses.
"""
import numpy as np

from .cases import call, values

ONEHOT = np.eye(4, dtype="float32")[[2, 0, 3, 1, 1]]
IDS = np.array([2, 0, 3, 1, 1], "int64")


def _contrib(tf):
    contrib = getattr(tf, "contrib", None)
    return contrib if contrib is not None and hasattr(contrib, "losses") else None


def _pair(ours, theirs):
    """A case whose tensor is ours(tf.contrib, tf) in ringflow and theirs(tf) in TensorFlow."""
    def build(tf):
        contrib = _contrib(tf)
        return ours(contrib, tf) if contrib is not None else theirs(tf)
    return call("identity", {"build": build})


def _c(tf, array):
    return tf.constant(np.asarray(array))


def _x(salt=0, shape=(5, 4), dom="any"):
    return values("float32", shape, dom, salt)


def _loss_cases():
    pred, lab, prob = _x(0), _x(1), _x(2, dom="prob")
    binary = (values("int32", (5, 4), "prob", 3)).astype("float32")
    row_w = np.array([1.0, 0.0, 2.0, 0.5, 3.0], "float32")
    full_w = (values("int32", (5, 4), "prob", 4)).astype("float32") * 1.5
    unit_p = pred / np.linalg.norm(pred, axis=1, keepdims=True)
    unit_l = lab / np.linalg.norm(lab, axis=1, keepdims=True)
    weights = {"scalar": (2.0, 2.0), "per_sample": (row_w, row_w[:, None]), "column": (row_w[:, None], row_w[:, None]),
               "full": (full_w, full_w), "zero": (0.0, 0.0)}
    for label, (ours_w, core_w) in weights.items():
        yield f"mean_squared_error/weights_{label}", _pair(
            lambda c, tf, w=ours_w: c.losses.mean_squared_error(_c(tf, pred), _c(tf, lab), weights=w),
            lambda tf, w=core_w: tf.losses.mean_squared_error(_c(tf, lab), _c(tf, pred), weights=w))
        yield f"absolute_difference/weights_{label}", _pair(
            lambda c, tf, w=ours_w: c.losses.absolute_difference(_c(tf, pred), _c(tf, lab), w),
            lambda tf, w=core_w: tf.losses.absolute_difference(_c(tf, lab), _c(tf, pred), w))
        yield f"log_loss/weights_{label}", _pair(
            lambda c, tf, w=ours_w: c.losses.log_loss(_c(tf, prob), _c(tf, binary), weights=w),
            lambda tf, w=core_w: tf.losses.log_loss(_c(tf, binary), _c(tf, prob), weights=w))
        yield f"sigmoid_cross_entropy/weights_{label}", _pair(
            lambda c, tf, w=ours_w: c.losses.sigmoid_cross_entropy(_c(tf, pred), _c(tf, binary), w, 0.2),
            lambda tf, w=core_w: tf.losses.sigmoid_cross_entropy(_c(tf, binary), _c(tf, pred), w, 0.2))
    for label, w in (("scalar", 1.5), ("per_sample", row_w)):
        yield f"softmax_cross_entropy/weights_{label}", _pair(
            lambda c, tf, w=w: c.losses.softmax_cross_entropy(_c(tf, pred), _c(tf, ONEHOT), w, label_smoothing=0.1),
            lambda tf, w=w: tf.losses.softmax_cross_entropy(_c(tf, ONEHOT), _c(tf, pred), w, label_smoothing=0.1))
        yield f"sparse_softmax_cross_entropy/weights_{label}", _pair(
            lambda c, tf, w=w: c.losses.sparse_softmax_cross_entropy(_c(tf, pred), _c(tf, IDS[:, None]), w),
            lambda tf, w=w: tf.losses.sparse_softmax_cross_entropy(_c(tf, IDS), _c(tf, pred), w))
    yield "cosine_distance/axis1", _pair(
        lambda c, tf: c.losses.cosine_distance(_c(tf, unit_p), _c(tf, unit_l), axis=1, weights=row_w),
        lambda tf: tf.losses.cosine_distance(_c(tf, unit_l), _c(tf, unit_p), axis=1, weights=row_w[:, None]))
    yield "hinge_loss/unreduced", _pair(
        lambda c, tf: c.losses.hinge_loss(_c(tf, pred), _c(tf, binary)),
        lambda tf: tf.losses.hinge_loss(_c(tf, binary), _c(tf, pred), loss_collection=None,
                                        reduction=tf.losses.Reduction.NONE))
    yield "compute_weighted_loss/per_sample", _pair(
        lambda c, tf: c.losses.compute_weighted_loss(_c(tf, _x(5, (5, 2, 3))), row_w),
        lambda tf: tf.losses.compute_weighted_loss(_c(tf, _x(5, (5, 2, 3))), row_w[:, None, None]))
    yield "get_total_loss/two_losses", _pair(
        lambda c, tf: (c.losses.mean_squared_error(_c(tf, pred), _c(tf, lab)),
                       c.losses.absolute_difference(_c(tf, pred), _c(tf, lab)), c.losses.get_total_loss())[-1],
        lambda tf: (tf.losses.mean_squared_error(_c(tf, lab), _c(tf, pred)),
                    tf.losses.absolute_difference(_c(tf, lab), _c(tf, pred)), tf.losses.get_total_loss())[-1])


def _metric_cases():
    ids_p = np.array([1, 0, 1, 1, 0, 1], "int64")
    ids_l = np.array([1, 1, 0, 1, 0, 0], "int64")
    scores = np.array([0.9, 0.2, 0.6, 0.7, 0.1, 0.4], "float32")
    w = np.array([1.0, 2.0, 0.0, 1.0, 1.0, 0.5], "float32")
    logits = _x(6, (6, 4))
    streaming = {
        "accuracy": (lambda m, tf: m.streaming_accuracy(_c(tf, ids_p), _c(tf, ids_l), _c(tf, w)),
                     lambda tf: tf.metrics.accuracy(_c(tf, ids_l), _c(tf, ids_p), _c(tf, w))),
        "precision": (lambda m, tf: m.streaming_precision(_c(tf, ids_p), _c(tf, ids_l)),
                      lambda tf: tf.metrics.precision(_c(tf, ids_l), _c(tf, ids_p))),
        "recall": (lambda m, tf: m.streaming_recall(_c(tf, ids_p), _c(tf, ids_l), weights=_c(tf, w)),
                   lambda tf: tf.metrics.recall(_c(tf, ids_l), _c(tf, ids_p), weights=_c(tf, w))),
        "mean_squared_error": (lambda m, tf: m.streaming_mean_squared_error(_c(tf, scores), _c(tf, w)),
                               lambda tf: tf.metrics.mean_squared_error(_c(tf, w), _c(tf, scores))),
        "root_mean_squared_error": (lambda m, tf: m.streaming_root_mean_squared_error(_c(tf, scores), _c(tf, w)),
                                    lambda tf: tf.metrics.root_mean_squared_error(_c(tf, w), _c(tf, scores))),
        "mean_absolute_error": (lambda m, tf: m.streaming_mean_absolute_error(_c(tf, scores), _c(tf, w)),
                                lambda tf: tf.metrics.mean_absolute_error(_c(tf, w), _c(tf, scores))),
        "mean": (lambda m, tf: m.streaming_mean(_c(tf, scores), _c(tf, w)),
                 lambda tf: tf.metrics.mean(_c(tf, scores), _c(tf, w))),
        "percentage_less": (lambda m, tf: m.streaming_percentage_less(_c(tf, scores), 0.5),
                            lambda tf: tf.metrics.percentage_below(_c(tf, scores), 0.5)),
        "auc": (lambda m, tf: m.streaming_auc(_c(tf, scores), _c(tf, ids_l.astype(bool)), num_thresholds=20),
                lambda tf: tf.metrics.auc(_c(tf, ids_l.astype(bool)), _c(tf, scores), num_thresholds=20)),
        "precision_at_thresholds": (
            lambda m, tf: m.streaming_precision_at_thresholds(_c(tf, scores), _c(tf, ids_l.astype(bool)),
                                                              [0.3, 0.5, 0.8]),
            lambda tf: tf.metrics.precision_at_thresholds(_c(tf, ids_l.astype(bool)), _c(tf, scores),
                                                          [0.3, 0.5, 0.8])),
        "mean_iou": (lambda m, tf: m.streaming_mean_iou(_c(tf, ids_p), _c(tf, ids_l), 2),
                     lambda tf: tf.metrics.mean_iou(_c(tf, ids_l), _c(tf, ids_p), 2)),
        "sparse_precision_at_k": (lambda m, tf: m.streaming_sparse_precision_at_k(_c(tf, logits), _c(tf, ids_l), 2),
                                  lambda tf: tf.metrics.precision_at_k(_c(tf, ids_l), _c(tf, logits), 2)),
        "recall_at_k": (lambda m, tf: m.streaming_recall_at_k(_c(tf, logits), _c(tf, ids_l.astype("int32")), 2),
                        lambda tf: tf.metrics.mean(tf.nn.in_top_k(_c(tf, logits), _c(tf, ids_l.astype("int32")),
                                                                  2))),
    }
    for label, (ours, theirs) in streaming.items():
        yield f"streaming_{label}/update", _pair(lambda c, tf, f=ours: f(c.metrics, tf)[1],
                                                 lambda tf, f=theirs: f(tf)[1])
    yield "accuracy/weighted", _pair(
        lambda c, tf: c.metrics.accuracy(_c(tf, ids_p), _c(tf, ids_l), weights=_c(tf, w)),
        lambda tf: tf.div(tf.reduce_sum(tf.cast(tf.equal(_c(tf, ids_p), _c(tf, ids_l)), tf.float32) * w),
                          tf.reduce_sum(w)))
    yield "accuracy/unweighted", _pair(
        lambda c, tf: c.metrics.accuracy(_c(tf, ids_p), _c(tf, ids_l)),
        lambda tf: tf.reduce_mean(tf.cast(tf.equal(_c(tf, ids_p), _c(tf, ids_l)), tf.float32)))


def cases():
    return {f"contribloss/{name}": case for name, case in [*_loss_cases(), *_metric_cases()]}
