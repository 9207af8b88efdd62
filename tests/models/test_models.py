"""Each model's loss and metrics against an independent forward pass in numpy (or PyTorch for the CNN)."""
import numpy as np
import pytest

import models
import trainer as tg


def build(name, x_shape, task, label_dtype=np.int64, label_shape=(), **hparams):
    g = tg.Graph()
    with g.as_default():
        x = tg.placeholder(tg.float64, (None,) + x_shape)
        y = tg.placeholder(label_dtype, (None,) + label_shape)
        spec = models.get(name)(x, y, task, seed=3, **hparams)
        init = tg.global_variables_initializer()
    sess = tg.Session(g)
    sess.run(init)
    params = {v.op.name: sess.run(v) for v in g.get_collection("variables")}
    return sess, x, y, spec, params


def run(sess, spec, x, y, xv, yv):
    fetch = dict(spec.metrics, loss=spec.loss)
    out = sess.run(fetch, {x: xv, y: yv})
    return float(out.pop("loss")), spec.summarize({k: float(v) for k, v in out.items()})


def softmax_ce(logits, labels):
    z = logits - logits.max(1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(1, keepdims=True))
    return -logp[np.arange(len(labels)), labels].mean()


def dense(p, name, h):
    return h @ p[f"{name}/kernel"] + p[f"{name}/bias"]


def test_registry():
    assert models.names() == ["cnn", "linear", "logistic", "mlp", "multilabel"]
    assert models.get("mlp") is models.mlp.build
    with pytest.raises(ValueError) as err:
        models.get("resnet")
    assert "'resnet'" in str(err.value) and "mlp" in str(err.value)


def test_linear_is_the_seeds_regression():
    sess, x, y, spec, p = build("linear", (1,), models.Task("regression", 1), np.float64)
    xv = np.linspace(-1, 1, 9)[:, None]
    yv = 2 * xv[:, 0] + 0.1
    z = xv[:, 0] * p["weight"][0] + p["bias"][0]
    loss, metrics = run(sess, spec, x, y, xv, yv)
    assert loss == pytest.approx(np.mean((yv - z) ** 2), rel=1e-12) and metrics == {}


@pytest.mark.parametrize("name,hparams", [("logistic", {}), ("mlp", {"hidden": (6, 5)})])
def test_classifiers_match_numpy(name, hparams):
    rng = np.random.default_rng(0)
    xv, yv = rng.standard_normal((12, 4)), rng.integers(0, 3, 12)
    sess, x, y, spec, p = build(name, (4,), models.Task("classes", 3), **hparams)
    h = xv
    for i in range(len(hparams.get("hidden", ()))):
        h = np.maximum(dense(p, f"hidden{i + 1}", h), 0)
    logits = dense(p, "logits", h)
    loss, metrics = run(sess, spec, x, y, xv, yv)
    assert loss == pytest.approx(softmax_ce(logits, yv), rel=1e-10)
    assert metrics["accuracy"] == pytest.approx(np.mean(logits.argmax(1) == yv))


def test_multilabel_reports_micro_f1():
    rng = np.random.default_rng(1)
    xv, yv = rng.standard_normal((20, 4)), (rng.random((20, 3)) < 0.4).astype(np.float64)
    sess, x, y, spec, p = build("multilabel", (4,), models.Task("multilabel", 3), np.float64, (3,), hidden=(5,))
    logits = dense(p, "logits", np.maximum(dense(p, "hidden1", xv), 0))
    pred = logits >= 0
    tp, fp, fn = (pred & (yv == 1)).sum(), (pred & (yv == 0)).sum(), (~pred & (yv == 1)).sum()
    bce = np.maximum(logits, 0) - logits * yv + np.log1p(np.exp(-np.abs(logits)))
    loss, metrics = run(sess, spec, x, y, xv, yv)
    assert loss == pytest.approx(bce.mean(), rel=1e-10)
    assert metrics["micro_f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn))


def test_cnn_matches_pytorch():
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    rng = np.random.default_rng(2)
    xv, yv = rng.random((3, 28, 28)), rng.integers(0, 10, 3)
    sess, x, y, spec, p = build("cnn", (28, 28), models.Task("classes", 10))

    def conv(h, name, padding):  # HWIO kernel -> OIHW
        w = torch.tensor(p[f"{name}/kernel"]).permute(3, 2, 0, 1)
        return F.relu(F.conv2d(h, w, torch.tensor(p[f"{name}/bias"]), padding=padding))
    h = torch.tensor(xv)[:, None]
    h = F.max_pool2d(conv(h, "conv1", 2), 2)
    h = F.max_pool2d(conv(h, "conv2", 0), 2)
    h = h.permute(0, 2, 3, 1).reshape(3, -1).numpy()  # flatten in NHWC order, as the graph does
    h = np.maximum(dense(p, "fc2", np.maximum(dense(p, "fc1", h), 0)), 0)
    logits = dense(p, "logits", h)
    loss, metrics = run(sess, spec, x, y, xv, yv)
    assert loss == pytest.approx(softmax_ce(logits, yv), rel=1e-9)
    assert metrics["accuracy"] == pytest.approx(np.mean(logits.argmax(1) == yv))


def test_cnn_refuses_other_images():
    with pytest.raises(ValueError, match="28×28"):
        build("cnn", (20,), models.Task("classes", 4))


@pytest.mark.parametrize("name,kind", [("linear", "classes"), ("mlp", "regression"), ("multilabel", "classes")])
def test_models_refuse_the_wrong_kind_of_labels(name, kind):
    with pytest.raises(ValueError, match=f"{kind} labels"):
        build(name, (4,), models.Task(kind, 3))


@pytest.mark.parametrize("name,dataset", [("linear", "synthetic-linear"), ("mlp", "synthetic-classes"),
                                          ("multilabel", "synthetic-multilabel")])
def test_a_few_steps_lower_the_loss(name, dataset):
    from trainer.program.datasets import specs as datasets
    d = datasets.load(dataset)
    g = tg.Graph()
    with g.as_default():
        x = tg.placeholder(tg.float64, (None,) + d.x.shape[1:])
        y = tg.placeholder(np.int64 if d.task == "classes" else np.float64, (None,) + d.y.shape[1:])
        spec = models.get(name)(x, y, models.Task(d.task, d.num_outputs), seed=0)
        train = tg.train.AdamOptimizer(0.02).minimize(spec.loss)
        init = tg.global_variables_initializer()
    with tg.Session(g) as sess:
        sess.run(init)
        feed = {x: d.x[:256], y: d.y[:256]}
        before = sess.run(spec.loss, feed)
        for _ in range(30):
            sess.run(train, feed)
        assert sess.run(spec.loss, feed) < 0.7 * before
