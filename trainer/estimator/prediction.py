"""Estimator.predict's handling of prediction values: choosing keys and splitting batches into examples."""
from ..framework.graph_keys import GraphKeys


def reads_an_input(input_fn_result, graph):
    """Whether the input ends by itself (a Dataset, or a queue its runners fill: numpy_input_fn's); otherwise
    predict never stops."""
    if hasattr(input_fn_result, "make_one_shot_iterator") or hasattr(input_fn_result, "make_initializable_iterator"):
        return True
    return bool(graph.get_collection(GraphKeys.QUEUE_RUNNERS))


def extract_keys(predictions, predict_keys):
    """The predictions named in predict_keys (all when None)."""
    if not predict_keys:
        return predictions
    if not isinstance(predictions, dict):
        raise ValueError("predict_keys argument is not valid in case of non-dict predictions.")
    chosen = {key: value for key, value in predictions.items() if key in predict_keys}
    if not chosen:
        raise ValueError(f"Expected to run at least one output from {sorted(predictions)}, provided "
                         f"{predict_keys!r}.")
    return chosen


def _batch_length(values):
    length = None
    for key, value in values.items():
        length = length or value.shape[0]
        if value.shape[0] != length:
            raise ValueError(f"Batch length of predictions should be same. {key!r} has different batch length "
                             f"({value.shape[0]}) than others ({length}).")
    return length


def split(values, yield_single_examples):
    """One run's predictions as they are, or example by example (a dict per example for dict predictions)."""
    if not yield_single_examples:
        return [values]
    if not isinstance(values, dict):
        return list(values)
    return [{key: value[i] for key, value in values.items()} for i in range(_batch_length(values))]
