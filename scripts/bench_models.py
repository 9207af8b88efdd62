"""The benchmark models, built twice from the same initial values: on ringflow's graph API and in PyTorch eager.

Shared by bench_step.py (one process) and bench_peers.py (ranks under mpiexec). Every model is a float32
classifier trained on one fixed synthetic batch by one of OPTIMIZERS: plain SGD (the default), momentum or Adam,
each with the same hyper-parameters in both frameworks (see torch_optimizer for how PyTorch's are set to take
TF1's steps); ringflow's tensors are NHWC with HWIO filters,
PyTorch's NCHW, so the PyTorch copy gets its filters and its first dense layer's rows permuted to match:
both compute the same loss from the same numbers (bench_step.py checks the first step's loss). The GRUs differ
by design: TF1's GRUCell resets the state before the candidate's matmul, PyTorch's nn.GRU (cuDNN's GRU) after it,
so their losses agree only while the candidate's recurrent weights are zero; the work per step is the same.

    cnn    32x32x3 -> conv3x3(32)+relu+maxpool2 -> conv3x3(64)+relu+maxpool2 -> dense 256+relu -> 10, batch 32
    lenet  28x28x1 -> conv5x5(32)+relu+maxpool2 -> conv5x5(64)+relu+maxpool2 -> dense 1024+relu -> 10, batch 64
    mlp    784 -> 512+relu -> 512+relu -> 10, batch 128
    lstm   28 steps of 28 features -> BasicLSTMCell(128) -> last output -> dense 10, batch 64
    gru    28 steps of 28 features -> GRUCell(128) -> last output -> dense 10, batch 64
    keras-cnn       cnn built with tf.keras (Sequential of Conv2D, MaxPooling2D, Flatten, Dense)
    keras-lstm      lstm built with tf.keras: Sequential of LSTM(128, recurrent_activation='sigmoid': PyTorch's
                    gates; Keras' gate order i, f, c, o is PyTorch's) and Dense(10), its initial weights Keras'
    keras-resnet50  tf.keras.applications.ResNet50 in training mode (batch statistics, their moving averages
                    updated each step) at 64x64x3, 10 classes, batch 8 (a size a 2-core machine steps in about a
                    second); PyTorch's copy is written here by hand with the same layers (Keras' ResNet50 strides
                    its blocks in the first 1x1 convolution and gives every convolution a bias)
"""
import math

import numpy as np

import trainer as tg

LR = 0.01  # SGD's and momentum's learning rate
MOMENTUM = 0.9
ADAM = {"learning_rate": 0.001, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8}  # TF1's defaults
OPTIMIZERS = ("sgd", "momentum", "adam")
CONVNETS = {  # name: (image h, w, c), [(filter size, channels)], dense width, batch
    "cnn": ((32, 32, 3), [(3, 32), (3, 64)], 256, 32),
    "lenet": ((28, 28, 1), [(5, 32), (5, 64)], 1024, 64),
}
MLP = ([784, 512, 512, 10], 128)
LSTM = GRU = (28, 28, 128, 64)  # steps, features, units, batch
CLASSES = 10
KERAS_RESNET50 = ((64, 64, 3), 8)  # image, batch
NAMES = ("mlp", "cnn", "lenet", "lstm", "gru", "keras-cnn", "keras-lstm", "keras-resnet50")
RECURRENT_CELLS = {"lstm": tg.nn.rnn_cell.BasicLSTMCell, "gru": tg.nn.rnn_cell.GRUCell}


def _glorot(rng, shape, fan_in, fan_out):
    return (rng.uniform(-1, 1, shape) * np.sqrt(6 / (fan_in + fan_out))).astype(np.float32)


def init(model, seed=0):
    """(parameters as float32 arrays in ringflow's layouts, inputs, integer labels) for `model`."""
    rng = np.random.default_rng(seed)
    if model == "keras-cnn":
        return init("cnn", seed)
    if model in ("keras-resnet50", "keras-lstm"):
        (image, batch), graph = KERAS_RESNET50 if model == "keras-resnet50" else (LSTM[:2], LSTM[3]), tg.Graph()
        with graph.as_default():
            tg.set_random_seed(seed)
            params = tg.keras.backend.batch_get_value(keras_model(model).weights)
        return params, rng.standard_normal((batch, *image)).astype(np.float32), rng.integers(0, CLASSES, batch)
    if model == "mlp":
        widths, batch = MLP
        params = [a for i, o in zip(widths[:-1], widths[1:])
                  for a in (_glorot(rng, (i, o), i, o), np.zeros(o, np.float32))]
        return params, rng.standard_normal((batch, widths[0])).astype(np.float32), rng.integers(0, CLASSES, batch)
    if model == "lstm":
        steps, features, units, batch = LSTM
        params = [_glorot(rng, (features + units, 4 * units), features + units, 4 * units),
                  np.zeros(4 * units, np.float32), _glorot(rng, (units, CLASSES), units, CLASSES),
                  np.zeros(CLASSES, np.float32)]
        return params, rng.standard_normal((batch, steps, features)).astype(np.float32), rng.integers(0, CLASSES, batch)
    if model == "gru":
        steps, features, units, batch = GRU
        rows = features + units
        params = [_glorot(rng, (rows, 2 * units), rows, 2 * units), np.ones(2 * units, np.float32),
                  _glorot(rng, (rows, units), rows, units), np.zeros(units, np.float32),
                  _glorot(rng, (units, CLASSES), units, CLASSES), np.zeros(CLASSES, np.float32)]
        return params, rng.standard_normal((batch, steps, features)).astype(np.float32), rng.integers(0, CLASSES, batch)
    (h, w, c), convs, width, batch = CONVNETS[model]
    params = []
    for k, o in convs:
        params += [_glorot(rng, (k, k, c, o), k * k * c, k * k * o), np.zeros(o, np.float32)]
        c, h, w = o, h // 2, w // 2
    for i, o in ((h * w * c, width), (width, CLASSES)):
        params += [_glorot(rng, (i, o), i, o), np.zeros(o, np.float32)]
    image = CONVNETS[model][0]
    return params, rng.standard_normal((batch, *image)).astype(np.float32), rng.integers(0, CLASSES, batch)


def _ringflow_logits(model, x, params):
    if model in RECURRENT_CELLS:
        outputs, _ = tg.nn.dynamic_rnn(RECURRENT_CELLS[model](LSTM[2]), x, dtype=tg.float32)
        cell = tg.trainable_variables()  # the cell's, made by dynamic_rnn
        head = [tg.Variable(p, name=f"dense{i}") for i, p in enumerate(params[len(cell):])]
        return tg.nn.bias_add(tg.matmul(outputs[:, -1], head[0]), head[1]), cell + head
    variables = [tg.Variable(p, name=f"p{i}") for i, p in enumerate(params)]
    h, n_conv = x, 0 if model == "mlp" else len(CONVNETS[model][1])
    for i in range(n_conv):
        h = tg.nn.relu(tg.nn.bias_add(tg.nn.conv2d(h, variables[2 * i], strides=1, padding="SAME"),
                                      variables[2 * i + 1]))
        h = tg.nn.max_pool(h, ksize=2, strides=2, padding="VALID")
    if n_conv:
        h = tg.reshape(h, [-1, int(np.prod(h.shape[1:]))])
    dense = variables[2 * n_conv:]
    for i in range(0, len(dense), 2):
        h = tg.nn.bias_add(tg.matmul(h, dense[i]), dense[i + 1])
        if i + 2 < len(dense):
            h = tg.nn.relu(h)
    return h, variables


def keras_model(model):
    keras = tg.keras
    if model == "keras-resnet50":
        return keras.applications.ResNet50(weights=None, input_shape=KERAS_RESNET50[0], classes=CLASSES)
    if model == "keras-lstm":
        steps, features, units, _ = LSTM
        return keras.Sequential([keras.layers.LSTM(units, recurrent_activation="sigmoid",
                                                   input_shape=(steps, features)), keras.layers.Dense(CLASSES)])
    (h, w, c), convs, width, _ = CONVNETS["cnn"]
    layers = [keras.layers.InputLayer((h, w, c))]
    for k, o in convs:
        layers += [keras.layers.Conv2D(o, k, padding="same", activation="relu"), keras.layers.MaxPooling2D()]
    layers += [keras.layers.Flatten(), keras.layers.Dense(width, activation="relu"), keras.layers.Dense(CLASSES)]
    return keras.Sequential(layers)


def _keras_logits(model, params):
    """(input, logits, the model's updates, session) of the Keras model in training mode, holding `params`."""
    tg.keras.backend.set_learning_phase(1)  # before the layers are called: batch normalization reads it then
    net = keras_model(model)
    net.set_weights(params)
    last = net.layers[-1]
    logits = tg.nn.bias_add(tg.matmul(last.input, last.kernel), last.bias)  # before the classifier's softmax
    return net.inputs[0], logits, net.updates, tg.keras.backend.get_session()


def ringflow_optimizer(name, adam=ADAM):
    """The tf.train optimizer `name` (of OPTIMIZERS); `adam` gives Adam's hyper-parameters."""
    if name == "adam":
        return tg.train.AdamOptimizer(**adam)
    if name == "momentum":
        return tg.train.MomentumOptimizer(LR, MOMENTUM)
    if name == "sgd":
        return tg.train.GradientDescentOptimizer(LR)
    raise ValueError(f"unknown optimizer {name!r}; known: {', '.join(OPTIMIZERS)}")


def ringflow_step(model, params, x, labels, wrap_optimizer=None, device="cpu", optimizer="sgd", adam=ADAM):
    """(step function, session, train op, loss tensor, feed dict): one training step of `model` per call."""
    graph = tg.Graph()
    with graph.as_default():
        yt = tg.placeholder(tg.int64, [None], name="labels")
        if model.startswith("keras-"):
            sess = tg.Session(device=device)
            tg.keras.backend.set_session(sess)
            xt, logits, updates, _ = _keras_logits(model, params)
        else:
            xt = tg.placeholder(tg.float32, [None, *x.shape[1:]], name="x")
            (logits, variables), updates = _ringflow_logits(model, xt, params), []
        loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=yt, logits=logits))
        optimizer = ringflow_optimizer(optimizer, adam)
        train = (wrap_optimizer(optimizer) if wrap_optimizer else optimizer).minimize(loss)
        train = tg.group(train, *updates) if updates else train
        if model.startswith("keras-"):  # Keras' session holds the model's weights: start the optimizer's slots
            sess.run(tg.variables_initializer(optimizer.variables()))
        else:
            sess = tg.Session(device=device)
            sess.run(tg.global_variables_initializer())
        if model in RECURRENT_CELLS:  # the cell made its variables: give them the shared initial values
            for v, p in zip(variables, params):
                v.load(p, sess)
    feed = {xt: x, yt: labels}
    return (lambda: sess.run(train, feed)), sess, train, loss, feed


def _torch_params(model, params):
    """ringflow's parameters in PyTorch's layouts (OIHW filters, (out, in) weights, LSTM gates reordered)."""
    import torch
    if model == "lstm":
        units, (kernel, bias) = LSTM[2], params[:2]
        i, j, f, o = np.split(kernel, 4, axis=1)
        bi, bj, bf, bo = np.split(bias, 4)
        k = np.concatenate([i, f, j, o], axis=1)  # PyTorch's gate order: input, forget, cell, output
        arrays = [k[:-units].T, k[-units:].T, np.concatenate([bi, bf + 1.0, bj, bo]), np.zeros(4 * units),
                  params[2].T, params[3]]  # BasicLSTMCell adds forget_bias=1 to the forget gate
    elif model == "gru":
        features, (gates, gate_bias, candidate, candidate_bias) = GRU[1], params[:4]
        k = np.concatenate([gates, candidate], axis=1)  # [r, u, c] is PyTorch's [r, z, n]: u and z both keep h
        arrays = [k[:features].T, k[features:].T, np.concatenate([gate_bias, candidate_bias]),
                  np.zeros(k.shape[1]), params[4].T, params[5]]
    elif model == "keras-lstm":  # kernel, recurrent kernel, bias (forget gate's 1 included), dense kernel, bias
        arrays = [params[0].T, params[1].T, params[2], np.zeros_like(params[2]), params[3].T, params[4]]
    elif model == "mlp":
        arrays = [p.T if p.ndim == 2 else p for p in params]
    elif model == "keras-resnet50":  # Keras' order: conv kernel, bias; BN gamma, beta, moving mean, variance
        arrays = [p.transpose(3, 2, 0, 1) if p.ndim == 4 else p.T if p.ndim == 2 else p for p in params]
    else:
        n_conv = len(CONVNETS[model][1])
        arrays = [p.transpose(3, 2, 0, 1) if p.ndim == 4 else p for p in params[:2 * n_conv]]
        first = params[2 * n_conv]
        c = params[2 * n_conv - 2].shape[3]
        hw = int(round(np.sqrt(first.shape[0] // c)))  # NHWC rows (h, w, c) -> NCHW rows (c, h, w)
        first = first.reshape(hw, hw, c, -1).transpose(2, 0, 1, 3).reshape(first.shape)
        arrays += [first.T, params[2 * n_conv + 1]] + [p.T if p.ndim == 2 else p for p in params[2 * n_conv + 2:]]
    return [torch.tensor(np.ascontiguousarray(a), dtype=torch.float32) for a in arrays]


def torch_resnet50(classes):
    """Keras' ResNet50 (resnet50.py of Keras 2.2.4-tf) in PyTorch: its convolutions and batch normalizations
    (epsilon 1e-3, Keras' momentum 0.99) registered in Keras' layer order, so Keras' weights load in order."""
    import torch
    nn = torch.nn

    def bn(c):
        return nn.BatchNorm2d(c, eps=1e-3, momentum=0.01)

    class Block(nn.Module):
        def __init__(self, c, filters, stride, shortcut):
            super().__init__()
            f1, f2, f3 = filters
            self.a, self.bn_a = nn.Conv2d(c, f1, 1, stride=stride), bn(f1)
            self.b, self.bn_b = nn.Conv2d(f1, f2, 3, padding=1), bn(f2)
            self.c = nn.Conv2d(f2, f3, 1)
            self.short = nn.Conv2d(c, f3, 1, stride=stride) if shortcut else None  # Keras lists it after c
            self.bn_c = bn(f3)
            self.bn_short = bn(f3) if shortcut else None

        def forward(self, x):
            y = torch.relu(self.bn_a(self.a(x)))
            y = torch.relu(self.bn_b(self.b(y)))
            y = self.bn_c(self.c(y))
            return torch.relu(y + (self.bn_short(self.short(x)) if self.short is not None else x))

    class ResNet50(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.bn1 = nn.Conv2d(3, 64, 7, stride=2), bn(64)
            blocks, c = [], 64
            for stage, (f, n) in enumerate(((64, 3), (128, 4), (256, 6), (512, 3))):
                for i in range(n):
                    blocks.append(Block(c, (f, f, 4 * f), 2 if i == 0 and stage else 1, i == 0))
                    c = 4 * f
            self.blocks, self.fc = nn.Sequential(*blocks), nn.Linear(c, classes)

        def forward(self, x):
            x = torch.relu(self.bn1(self.conv1(nn.functional.pad(x, (3, 3, 3, 3)))))
            x = self.blocks(nn.functional.max_pool2d(x, 3, 2))
            return self.fc(x.mean(dim=(2, 3)))
    return ResNet50()


def resnet_tensors(net):
    """Its parameters and running statistics in Keras' weight order."""
    import torch
    tensors = []
    for module in net.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            tensors += [module.weight, module.bias, module.running_mean, module.running_var]
        elif isinstance(module, (torch.nn.Conv2d, torch.nn.Linear)):
            tensors += [module.weight, module.bias]
    return tensors


def torch_module(model, params):
    """A torch.nn.Module computing the logits of `model` (NCHW images), holding `params`."""
    import torch
    nn = torch.nn
    model = "cnn" if model == "keras-cnn" else model
    values = _torch_params(model, params)
    if model == "keras-resnet50":
        net = torch_resnet50(CLASSES)
        with torch.no_grad():
            for t, v in zip(resnet_tensors(net), values, strict=True):
                t.copy_(v)
        return net
    if model in RECURRENT_CELLS or model == "keras-lstm":
        steps, features, units, _ = LSTM
        layer = nn.GRU if model == "gru" else nn.LSTM

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn, self.fc = layer(features, units, batch_first=True), nn.Linear(units, CLASSES)
                self.rnn.bias_hh_l0.requires_grad_(False)  # zero and frozen: one trained bias, as in TF

            def forward(self, x):
                return self.fc(self.rnn(x)[0][:, -1])
        net = Net()
    else:
        layers = []
        if model != "mlp":
            c = CONVNETS[model][0][2]
            for k, o in CONVNETS[model][1]:
                layers += [nn.Conv2d(c, o, k, padding=k // 2), nn.ReLU(), nn.MaxPool2d(2)]
                c = o
            layers.append(nn.Flatten())
        dense = [v for v in values[len(layers) // 3 * 2:] if v.ndim == 2]
        for i, w in enumerate(dense):
            layers.append(nn.Linear(w.shape[1], w.shape[0]))
            if i + 1 < len(dense):
                layers.append(nn.ReLU())
        net = nn.Sequential(*layers)
    with torch.no_grad():
        for p, v in zip(net.parameters(), values):
            p.copy_(v)
    return net


def torch_inputs(model, x, labels):
    import torch
    images = x.transpose(0, 3, 1, 2) if x.ndim == 4 else x
    return torch.tensor(np.ascontiguousarray(images)), torch.tensor(labels)


def torch_optimizer(name, parameters, adam=ADAM):
    """PyTorch's optimizer taking the steps of ringflow_optimizer(name, adam), in its fastest form on the CPU
    (`fused`: one pass over each parameter) for momentum and Adam; plain SGD keeps the default (for-loop) form.

    Momentum: PyTorch's buffer starts as the first gradient where TF1's accumulator starts at zero and adds it,
    the same value. Adam: TF1 adds epsilon to sqrt(v) and folds both bias corrections into the step size, PyTorch
    adds its epsilon to sqrt(v / (1 - beta2^t)); the two updates are the same when PyTorch's epsilon at step t
    is TF1's / sqrt(1 - beta2^t), which TF1Adam sets before each step."""
    import torch
    if name == "sgd":
        return torch.optim.SGD(parameters, lr=LR)
    if name == "momentum":
        return torch.optim.SGD(parameters, lr=LR, momentum=MOMENTUM, fused=True)
    if name != "adam":
        raise ValueError(f"unknown optimizer {name!r}; known: {', '.join(OPTIMIZERS)}")

    class TF1Adam(torch.optim.Adam):
        def __init__(self):
            super().__init__(parameters, lr=adam["learning_rate"], betas=(adam["beta1"], adam["beta2"]),
                             eps=adam["epsilon"], fused=True)
            self.t = 0

        def step(self, closure=None):
            self.t += 1
            for group in self.param_groups:
                group["eps"] = adam["epsilon"] / math.sqrt(1 - adam["beta2"] ** self.t)
            return super().step(closure)
    return TF1Adam()


def torch_step(model, params, x, labels, wrap_module=None, device="cpu", optimizer="sgd", adam=ADAM):
    """(step function, loss function): one training step of `model` in PyTorch eager per call (device "gpu":
    CUDA)."""
    import torch
    where = "cuda" if device == "gpu" else "cpu"
    net = torch_module(model, params).to(where)
    net = wrap_module(net) if wrap_module else net
    opt = torch_optimizer(optimizer, net.parameters(), adam)
    xt, yt = (t.to(where) for t in torch_inputs(model, x, labels))

    def step():
        loss = torch.nn.functional.cross_entropy(net(xt), yt)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    def loss():
        with torch.no_grad():
            return float(torch.nn.functional.cross_entropy(net(xt), yt))
    return step, loss
