"""Model: a Network that trains. compile() builds the loss, metrics and update ops once; fit, evaluate and predict
feed batches through K.function in Keras' session, the learning phase fed True while training.

The numbers are TF 1.15's: a loss is the mean over the batch of per-sample losses times their sample weights,
plus the layers' regularization losses; the epoch's value is the batch values averaged by batch size (by step for
the loss when the data comes as steps), and 'acc'/'accuracy' is named 'acc' as graph-mode Keras names it.
"""
import numpy as np

from ...framework.graph import get_default_graph
from ...framework.tensor import Tensor
from .. import backend as K
from ..callbacks.base import configure
from .. import optimizers
from ..utils.generic_utils import Progbar, to_list
from .data_adapter import ArrayBatches, StreamBatches, as_list, graph_tensors, tensor_batches, unpack
from .network import Network
from .saving import save_model
from .training_utils import Objective, per_output, ratio, standardize_weights


class Model(Network):
    """tf.keras.Model: Model(inputs, outputs) or a subclass with call(); compile, then fit/evaluate/predict."""

    def __init__(self, *args, **kwargs):
        self._functions = {}  # "train", "test", "predict": K.function's callable, made on first use
        self._metric_totals = None  # the running (sum, count) of each metric, as TF 1.15's metric variables
        self.optimizer = None
        super().__init__(*args, **kwargs)

    def compile(self, optimizer, loss=None, metrics=None, loss_weights=None, sample_weight_mode=None,
                weighted_metrics=None, target_tensors=None, **kwargs):
        """Choose the optimizer (a name, a Keras or tf.train optimizer), the loss per output and the metrics."""
        if kwargs:
            raise TypeError(f"Invalid keyword argument(s) in `compile`: {sorted(kwargs)}")
        self.optimizer = [optimizers.get(o) for o in optimizer] if isinstance(optimizer, (list, tuple)) \
            else optimizers.get(optimizer)  # a list for models that train parts apart (WideDeepModel)
        self.loss, self.loss_weights = loss, loss_weights
        self.metrics, self.weighted_metrics = metrics, weighted_metrics
        self.sample_weight_mode, self.target_tensors = sample_weight_mode, target_tensors
        self.stop_training = False
        self._functions = {}
        if self.outputs:
            self._build_loss()

    @property
    def _is_compiled(self):
        return getattr(self, "optimizer", None) is not None

    def _build_loss(self):
        objective = Objective(self.outputs, self.output_names, self.loss, self.loss_weights, self.metrics,
                              self.losses, self.weighted_metrics, self.sample_weight_mode, self.target_tensors)
        self.objective, self.total_loss = objective, objective.total_loss
        self.targets, self.sample_weights = objective.targets, objective.sample_weights
        self.metrics_names, self.metrics_tensors = objective.metrics_names, objective.metrics_tensors

    # --- the three functions ------------------------------------------------------------------------------
    def _function(self, mode):
        if mode not in self._functions:
            self._require(mode)
            phase = K.learning_phase()
            extra = [phase] if isinstance(phase, Tensor) else []
            feeds = list(self.inputs)
            if mode != "predict":
                feeds += self.objective.feeds()
            outputs = self.outputs if mode == "predict" else \
                [self.total_loss] + [t for pair in self.objective.parts for t in pair]
            updates = self.state_updates
            if mode == "train":
                with get_default_graph().name_scope("training"):
                    updates = self.training_updates() + self.updates
            self._functions[mode] = (K.function(feeds + extra, outputs, updates=updates), bool(extra))
        fn, has_phase = self._functions[mode]
        return lambda arrays: fn(arrays + ([mode == "train"] if has_phase else []))

    def training_updates(self):
        """The optimizer's update ops of one training step: the override point of a model that trains its parts
        with optimizers of their own."""
        if isinstance(self.optimizer, list):
            raise ValueError(f"Model {self.name!r} was compiled with {len(self.optimizer)} optimizers, which only "
                             "a model that says what each trains (WideDeepModel) takes: give one optimizer")
        return self.optimizer.get_updates(self.total_loss, self.trainable_weights)

    def make_train_function(self):
        """Build the training step (and with it the optimizer's slot variables) now rather than at the first fit."""
        self._function("train")

    def _require(self, mode):
        if mode != "predict" and not self._is_compiled:
            raise RuntimeError("You must compile your model before training/testing. Use "
                               "`model.compile(optimizer, loss)`.")
        if not self.outputs:
            raise RuntimeError(f"Model {self.name!r} has no outputs yet: build it (call it on data, or give "
                               "input_shape to its first layer) before predicting")

    def _needs_targets(self):
        objective = getattr(self, "objective", None)
        return objective is None or bool(objective.fed_names)

    # --- data -------------------------------------------------------------------------------------------
    def _standardize(self, x, y=None, sample_weight=None, class_weight=None):
        """Lists of arrays (inputs, targets, sample weights), in the model's input and output order."""
        if not self.inputs:
            self._build_from(x)
        xs = as_list(x, self.input_names, "input")
        for i, (a, t) in enumerate(zip(xs, self.inputs)):
            if a.ndim == K.ndim(t) - 1 and K.ndim(t) == 2:
                xs[i] = a.reshape(-1, 1)
        objective = getattr(self, "objective", None)
        if y is None and (objective is None or objective.fed_names):
            return [xs, [], []]
        named = [n for n, t in zip(self.output_names, objective.targets) if t is not None]
        ys = as_list(y, objective.fed_names, "target")
        ys = [a.reshape(a.shape + (1,)) if a.ndim == K.ndim(t) - 1 else a for a, t in zip(ys, objective.fed_targets)]
        arrays = dict(zip(objective.fed_names, ys))
        sws = per_output(sample_weight, named, "sample_weight") if sample_weight is not None else [None] * len(named)
        if isinstance(class_weight, dict) and class_weight and set(class_weight) <= set(named):
            cws = [class_weight.get(n) for n in named]  # one {class: weight} per output name
        elif isinstance(class_weight, (list, tuple)):
            cws = list(class_weight)
        else:
            cws = [class_weight] * len(named)
        modes = [m for m, t in zip(objective.sample_weight_modes, objective.targets) if t is not None]
        outputs = [o for o, t in zip(self.outputs, objective.targets) if t is not None]
        size = len(xs[0]) if xs else 0
        weights = [standardize_weights(arrays.get(n), size, sw, cw, mode, n, K.int_shape(o))
                   for n, sw, cw, mode, o in zip(named, sws, cws, modes, outputs)]
        return [xs, ys, weights]

    def _build_from(self, x):
        """A subclassed model meets its first data: placeholders shaped like it, then call()."""
        arrays = list(x.values()) if isinstance(x, dict) else to_list(x)
        inputs = [K.placeholder(shape=(None,) + np.shape(a)[1:], dtype=K.floatx() if np.asarray(a).dtype.kind == "f"
                                else np.asarray(a).dtype, name=f"input_{i + 1}") for i, a in enumerate(arrays)]
        outputs = self.call(inputs[0] if len(inputs) == 1 else inputs)
        self.inputs, self.outputs = inputs, to_list(outputs)
        self.input_names = [f"input_{i + 1}" for i in range(len(inputs))]
        self.output_names = [f"output_{i + 1}" for i in range(len(self.outputs))]
        self.built = True
        if self._is_compiled:
            self._build_loss()

    def _batches(self, x, y, sample_weight, class_weight, batch_size, shuffle, steps, targets=True,
                 steps_name="steps"):
        if graph_tensors((x, y, sample_weight)):
            if steps is None:
                raise ValueError(f"When using data tensors as input to a model, you should specify the "
                                 f"`{steps_name}` argument.")
            x, y, sample_weight = tensor_batches(x, y, sample_weight), None, None
        if isinstance(x, (list, tuple, dict, np.ndarray)) or hasattr(x, "__array__"):
            if targets and y is None and self._needs_targets():
                raise ValueError("Please provide as model targets either a single array or a list of arrays. You "
                                 "passed: y=None (fit and evaluate on arrays need the targets)")
            return ArrayBatches(self._standardize(x, y, sample_weight, class_weight), batch_size, shuffle, steps)

        def split(batch):
            bx, by, bw = unpack(batch)
            return self._standardize(bx, by, bw, class_weight)
        batches = StreamBatches(x, steps, split)
        first = batches.peek() if not self.inputs else None
        if first is not None:  # fit's names need the model built before its loop
            split(first)
        return batches

    # --- loops -------------------------------------------------------------------------------------------
    def _run(self, mode, batches, callbacks=None, progbar=None):
        """One pass over `batches`; the epoch's averages in metrics_names order (predict: the outputs)."""
        fn = None
        loss_sum, seen, steps, predictions = 0.0, 0, 0, []
        if mode != "predict":
            self.reset_metrics()
        for step, (arrays, size) in enumerate(batches.epoch()):
            fn = fn or self._function(mode)
            logs = {"batch": step, "size": size}
            if callbacks is not None:
                callbacks.on_batch_begin(step, logs)
            values = fn(arrays[0] + (arrays[1] + arrays[2] if mode != "predict" else []))
            if mode == "predict":
                predictions.append(values)
            else:
                loss = float(values[0])
                loss_sum += loss if batches.unit == "step" else loss * size
                steps += 1
                # the batch's loss and the metrics' running means, as TF 1.15's stateful metrics log them
                logs.update(zip(self.metrics_names, [loss] + self._accumulate(values[1:])))
            seen += size
            if callbacks is not None:
                callbacks.on_batch_end(step, logs)
                if self.stop_training:
                    break
            done = seen if batches.unit == "sample" else step + 1
            if progbar is not None and (progbar.target is None or done < progbar.target):
                progbar.update(done)  # the caller draws the last line, with the values
        if mode == "predict":
            if not predictions:
                return []
            columns = [np.concatenate(pieces) for pieces in zip(*predictions)]
            return columns[0] if len(columns) == 1 else columns
        if not steps:
            return [0.0] * len(self.metrics_names)
        return [loss_sum / (steps if batches.unit == "step" else seen)] + self._accumulate([])

    def _accumulate(self, values):
        """Add a batch's (sum, count) pairs to the running means' totals; the metrics' values now (a stateful
        Metric's is its result after the batch)."""
        if values:
            totals, at = [], 0
            for i, part in enumerate(self.objective.parts):
                batch, at = values[at:at + len(part)], at + len(part)
                if len(part) == 1:
                    totals.append(batch[0])
                    continue
                total, count = self._metric_totals[i] if self._metric_totals else (0.0, 0.0)
                totals.append((total + float(batch[0]), count + float(batch[1])))
            self._metric_totals = totals
        return [ratio(*t) if isinstance(t, tuple) else float(t) if np.ndim(t) == 0 else np.asarray(t)
                for t in self._metric_totals or []]

    def reset_metrics(self):
        """Start the metrics' running means afresh (fit and evaluate do at each epoch, *_on_batch after the batch
        unless reset_metrics=False), and the stateful metrics' states."""
        self._metric_totals = None
        objective = getattr(self, "objective", None)
        for metric in objective.stateful_metrics if objective is not None else []:
            metric.reset_states()

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose=1, callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_freq=1, max_queue_size=10, workers=1,
            use_multiprocessing=False, **kwargs):
        """Train for `epochs` (counted from initial_epoch); returns the History callback."""
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments to fit: {sorted(kwargs)}")
        if not self._is_compiled:
            self._require("train")
        batches = self._batches(x, y, sample_weight, class_weight, batch_size, shuffle, steps_per_epoch,
                                steps_name="steps_per_epoch")
        val_batches = None
        if validation_data is not None:
            if isinstance(validation_data, tuple):
                vx, vy, vw = unpack(validation_data)
                val_batches = self._batches(vx, vy, vw, None, batch_size, False, validation_steps,
                                            steps_name="validation_steps")
            else:
                val_batches = self._batches(validation_data, None, None, None, batch_size, False, validation_steps)
        elif validation_split and isinstance(batches, ArrayBatches):
            cut = int(batches.size * (1.0 - validation_split))
            head = [[a[:cut] for a in group] for group in batches.arrays]
            tail = [[a[cut:] for a in group] for group in batches.arrays]
            batches = ArrayBatches(head, batch_size, shuffle)
            val_batches = ArrayBatches(tail, batch_size, False)
        elif validation_split:
            raise ValueError("validation_split is only supported for numpy arrays; give validation_data for a "
                             "dataset or generator")
        if verbose and val_batches is not None and isinstance(batches, ArrayBatches) and \
                isinstance(val_batches, ArrayBatches) and steps_per_epoch is None:
            print(f"Train on {batches.size} samples, validate on {val_batches.size} samples")
        names = list(self.metrics_names)
        names += [f"val_{n}" for n in names] if val_batches is not None else []
        callback_list, history = configure(
            callbacks, self, verbose, epochs, batches.batches,
            batches.size if isinstance(batches, ArrayBatches) and steps_per_epoch is None else None, names)
        self.stop_training = False
        callback_list.on_train_begin({})
        for epoch in range(initial_epoch, epochs):
            callback_list.on_epoch_begin(epoch, {})
            logs = dict(zip(self.metrics_names, self._run("train", batches, callback_list)))
            if val_batches is not None and (epoch + 1) % validation_freq == 0:
                values = self._run("test", val_batches)
                logs.update((f"val_{n}", v) for n, v in zip(self.metrics_names, values))
            callback_list.on_epoch_end(epoch, logs)
            if self.stop_training:
                break
        callback_list.on_train_end({})
        return history

    def evaluate(self, x=None, y=None, batch_size=None, verbose=1, sample_weight=None, steps=None, callbacks=None,
                 max_queue_size=10, workers=1, use_multiprocessing=False):
        """The loss (and metrics) over the data: a scalar when there are no metrics, else a list."""
        batches = self._batches(x, y, sample_weight, None, batch_size, False, steps)
        progbar = Progbar(batches.target, verbose=verbose, unit_name=batches.unit) if verbose == 1 else None
        values = self._run("test", batches, progbar=progbar)
        if progbar is not None:
            progbar.update(progbar.target, list(zip(self.metrics_names, values)))
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose=0, steps=None, callbacks=None, max_queue_size=10, workers=1,
                use_multiprocessing=False):
        """The model's outputs for `x`, batch by batch, concatenated (a list of arrays for several outputs)."""
        batches = self._batches(x, None, None, None, batch_size, False, steps, targets=False)
        progbar = Progbar(batches.target, verbose=verbose, unit_name=batches.unit) if verbose == 1 else None
        outputs = self._run("predict", batches, progbar=progbar)
        if progbar is not None:
            progbar.update(progbar.target)
        return outputs

    def _on_batch(self, mode, x, y=None, sample_weight=None, class_weight=None, reset_metrics=True):
        if mode != "predict" and y is None and self._needs_targets():
            raise ValueError(f"{mode}_on_batch needs the targets `y` for the loss")
        arrays = self._standardize(x, y, sample_weight, class_weight)
        values = self._function(mode)(arrays[0] + (arrays[1] + arrays[2] if mode != "predict" else []))
        if mode == "predict":
            return values[0] if len(values) == 1 else values
        values = [np.float32(v) for v in [values[0]] + self._accumulate(values[1:])]
        if reset_metrics:
            self.reset_metrics()
        return values[0] if len(values) == 1 else values

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, reset_metrics=True):
        """One update on one batch; its loss (and metrics) before the update."""
        return self._on_batch("train", x, y, sample_weight, class_weight, reset_metrics)

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True):
        return self._on_batch("test", x, y, sample_weight, reset_metrics=reset_metrics)

    def predict_on_batch(self, x):
        return self._on_batch("predict", x)

    def fit_generator(self, generator, steps_per_epoch=None, epochs=1, verbose=1, callbacks=None,
                      validation_data=None, validation_steps=None, validation_freq=1, class_weight=None,
                      max_queue_size=10, workers=1, use_multiprocessing=False, shuffle=True, initial_epoch=0):
        """fit on batches drawn from a generator or a Sequence."""
        return self.fit(generator, steps_per_epoch=steps_per_epoch, epochs=epochs, verbose=verbose,
                        callbacks=callbacks, validation_data=validation_data, validation_steps=validation_steps,
                        validation_freq=validation_freq, class_weight=class_weight, initial_epoch=initial_epoch)

    def evaluate_generator(self, generator, steps=None, callbacks=None, max_queue_size=10, workers=1,
                           use_multiprocessing=False, verbose=0):
        return self.evaluate(generator, steps=steps, verbose=verbose)

    def predict_generator(self, generator, steps=None, callbacks=None, max_queue_size=10, workers=1,
                          use_multiprocessing=False, verbose=0):
        return self.predict(generator, steps=steps, verbose=verbose)

    def save(self, filepath, overwrite=True, include_optimizer=True, save_format=None, signatures=None):
        """Write the architecture, the weights and the optimizer's state (see saving.save_model)."""
        save_model(self, filepath, overwrite, include_optimizer, save_format)
