"""Idioms of outside TF1 programs (the fourth held-out round) checked against real TensorFlow: softmax cross-entropy
with labels of another rank or broadcast against the logits (TF's wrapper flattens both to [rows, classes] and its
kernel broadcasts them). Recorded into fixtures/tf_oracle_held4.json (record_tf_oracle.py --family held4)."""
from .cases import call, p, t

XENT, XENT_V2 = "nn.softmax_cross_entropy_with_logits", "nn.softmax_cross_entropy_with_logits_v2"
# (name, labels, logits): labels that are not of the logits' shape
LABELS = {
    "outer_one": (t("float32", (1, 4, 3), "prob"), t("float32", (4, 3), salt=1)),
    "inner_one": (t("float32", (4, 1, 3), "prob"), t("float32", (4, 3), salt=1)),
    "logits_3d": (t("float32", (4, 3), "prob"), t("float32", (2, 2, 3), salt=1)),
    "one_row": (t("float32", (1, 3), "prob"), t("float32", (4, 3), salt=1)),
    "vector": (t("float32", (3,), "prob"), t("float32", (4, 3), salt=1)),
    "class_column": (t("float32", (4, 1), "prob"), t("float32", (4, 3), salt=1)),
    "fed": (p("float32", (None, 1, 3), (4, 1, 3), "prob"), p("float32", (None, 3), (4, 3), salt=1)),
    "fed_one_row": (p("float32", (None, 3), (1, 3), "prob"), p("float32", (None, 3), (4, 3), salt=1)),
    "more_rows": (t("float32", (2, 4, 3), "prob"), t("float32", (4, 3), salt=1)),
    "fewer_rows": (t("float32", (2, 3), "prob"), t("float32", (4, 3), salt=1)),
    "logits_one_row": (t("float32", (4, 3), "prob"), t("float32", (1, 3), salt=1)),
}
SAME_SIZE = {"outer_one", "inner_one", "logits_3d", "fed"}  # TF's gradient reaches such labels too


def cases():
    found = {}
    for name, (labels, logits) in LABELS.items():
        # v1 stops the labels' gradient, so the logits' gradient is checked even where the labels broadcast
        found[f"held4/xent/{name}"] = call(XENT, labels=labels, logits=logits, grad=True)
        found[f"held4/xent_v2/{name}"] = call(XENT_V2, labels=labels, logits=logits, grad=name in SAME_SIZE)
    return found
