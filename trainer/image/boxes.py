"""Boxes: non_max_suppression (greedy, by score, dropping boxes that overlap a kept one by more than
iou_threshold) in its plain, overlaps and with_scores forms. Boxes are [y1, x1, y2, x2], either corner first."""
import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.registry import apply_op, register
from ..platform.errors import InvalidArgumentError
from ..ops.core_ops import convert_to_tensor


def _iou(boxes):
    y1, x1 = np.minimum(boxes[:, 0], boxes[:, 2]), np.minimum(boxes[:, 1], boxes[:, 3])
    y2, x2 = np.maximum(boxes[:, 0], boxes[:, 2]), np.maximum(boxes[:, 1], boxes[:, 3])
    area = (y2 - y1) * (x2 - x1)
    inter_h = np.maximum(0.0, np.minimum(y2[:, None], y2[None, :]) - np.maximum(y1[:, None], y1[None, :]))
    inter_w = np.maximum(0.0, np.minimum(x2[:, None], x2[None, :]) - np.maximum(x1[:, None], x1[None, :]))
    inter = inter_h * inter_w
    union = area[:, None] + area[None, :] - inter
    with np.errstate(all="ignore"):
        return np.where((area[:, None] <= 0) | (area[None, :] <= 0), 0.0, inter / union)


def _select(overlaps, scores, max_output_size, threshold, score_threshold, above):
    """Indices kept greedily by descending score (stable), skipping any whose overlap with a kept one is too high;
    `above` says that a larger overlap value means more overlap (IoU), as for every form here."""
    if int(max_output_size) < 0:
        raise InvalidArgumentError(f"max_output_size must be non-negative, got {int(max_output_size)}")
    order = np.argsort(-scores, kind="stable")
    kept = []
    for i in order:
        if len(kept) >= int(max_output_size) or scores[i] <= score_threshold:
            break
        if all(overlaps[i, j] <= threshold for j in kept):
            kept.append(i)
    return np.array(kept, dtype=np.int32)


def _nms(boxes, scores, max_output_size, iou_threshold, score_threshold):
    if boxes.ndim != 2 or boxes.shape[1] != 4 or scores.shape != (boxes.shape[0],):
        raise InvalidArgumentError(f"non_max_suppression: boxes must be [num_boxes, 4] and scores [num_boxes], got "
                                   f"{boxes.shape} and {scores.shape}")
    if not 0 <= float(iou_threshold) <= 1:
        raise InvalidArgumentError(f"iou_threshold must be in [0, 1], got {float(iou_threshold)}")
    return _select(_iou(boxes.astype(np.float64)), scores, max_output_size, float(iou_threshold),
                   float(score_threshold), True)


def _nms_overlaps(overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    return _select(overlaps, scores, max_output_size, float(overlap_threshold), float(score_threshold), True)


def _nms_with_scores(boxes, scores, max_output_size, iou_threshold, score_threshold, sigma):
    if float(sigma) != 0.0:
        raise InvalidArgumentError(f"soft_nms_sigma {float(sigma)} (Soft-NMS) is not supported in ringflow; "
                                   "use 0.0, plain NMS")
    kept = _nms(boxes, scores, max_output_size, iou_threshold, score_threshold)
    return kept, scores[kept]


register("NonMaxSuppressionV3", kernel=host_kernel(_nms), infer=lambda b, s, m, i, t: [((None,), dtypes.int32)],
         fresh=True)
register("NonMaxSuppressionWithOverlaps", kernel=host_kernel(_nms_overlaps),
         infer=lambda o, s, m, i, t: [((None,), dtypes.int32)],
         fresh=True)
register("NonMaxSuppressionV5", kernel=host_kernel(_nms_with_scores), fresh=True,
         infer=lambda b, s, m, i, t, sigma: [((None,), dtypes.int32), ((None,), s.dtype)])


def _inputs(boxes, scores, max_output_size, threshold, score_threshold):
    boxes = convert_to_tensor(boxes)
    scores = convert_to_tensor(scores, dtype=boxes.dtype)
    if boxes.dtype.kind != "f":
        raise TypeError(f"non_max_suppression needs float boxes, got {boxes.name!r} of dtype {boxes.dtype.name}")
    return [boxes, scores, convert_to_tensor(max_output_size, dtype=dtypes.int32),
            convert_to_tensor(threshold, dtype=boxes.dtype), convert_to_tensor(score_threshold, dtype=boxes.dtype)]


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                        name=None):
    """The indices (int32) of at most max_output_size boxes, by descending score, none overlapping a kept one by
    more than iou_threshold; boxes scoring at or below score_threshold are dropped."""
    return apply_op("NonMaxSuppressionV3", _inputs(boxes, scores, max_output_size, iou_threshold, score_threshold),
                    name=name or "non_max_suppression")


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """non_max_suppression on a given [num_boxes, num_boxes] overlap matrix instead of boxes."""
    return apply_op("NonMaxSuppressionWithOverlaps", _inputs(overlaps, scores, max_output_size, overlap_threshold,
                                                              score_threshold), name=name or "non_max_suppression")


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    """(selected indices, their scores); soft_nms_sigma must be 0 (plain NMS) here."""
    inputs = _inputs(boxes, scores, max_output_size, iou_threshold, score_threshold)
    sigma = convert_to_tensor(soft_nms_sigma, dtype=inputs[0].dtype)
    return apply_op("NonMaxSuppressionV5", inputs + [sigma], name=name or "non_max_suppression_with_scores")
