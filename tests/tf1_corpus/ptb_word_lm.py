"""A word-level language model: a two-layer LSTM unrolled by hand over windows cut from one long text.

Idioms: `tf.flags` definitions read through `FLAGS` after `tf.app.run()`; an input pipeline that turns a Python
list into a tensor (`convert_to_tensor`, `tf.size`, `reshape`), guards it with `tf.assert_positive` under
`control_dependencies` + `identity`, and cuts `[batch, steps]` windows with `tf.strided_slice` whose bounds are
tensors (from a repeating `tf.data` range iterator), then `set_shape`; contrib cells (`BasicLSTMCell` with
`reuse=`, `DropoutWrapper`, `MultiRNNCell`) with `zero_state` and tuple states fed back by their c and h
tensors; `tf.get_variable` under `variable_scope("LM", reuse=..., initializer=random_uniform_initializer)`
for three models sharing one set of variables; `get_variable_scope().reuse_variables()` in the unroll;
`tf.contrib.seq2seq.sequence_loss`; `clip_by_global_norm` of `tf.gradients` and `apply_gradients` with
`get_or_create_global_step`; a non-trainable learning-rate variable set by `tf.assign`; scalar summaries in name
scopes; `tf.train.Supervisor` with `managed_session` and `sv.saver.save(global_step=sv.global_step)`.
"""
import types

import numpy as np
import tensorflow as tf

tf.flags.DEFINE_string("data_path", None, "required; the text itself is generated")
tf.flags.DEFINE_string("save_path", None, "Supervisor directory and checkpoint prefix")
tf.flags.DEFINE_bool("use_fp16", False, "run embeddings, cells and logits in float16")
FLAGS = tf.flags.FLAGS

TRAINING = dict(scale=0.1, rate=1.0, clip=5.0, layers=2, steps=10, width=32, full_rate_epochs=2, epochs=4,
                keep=1.0, decay=0.5, batch=20, words=50)


def float_type():
    return tf.float16 if FLAGS.use_fp16 else tf.float32


def make_texts():
    """Training, validation and test texts over 50 words: after each word comes one of two fixed successors."""
    pick = np.random.RandomState(0)
    follow = np.column_stack([pick.permutation(50), pick.permutation(50)])

    def walk(length, seed):
        coin, word, text = np.random.RandomState(seed), 0, [0]
        while len(text) < length:
            word = follow[word, coin.randint(2)]
            text.append(word)
        return text

    return walk(20200, 1), walk(1000, 2), walk(60, 3)


def windows(text, batch, steps, name):
    """Input and target windows ([batch, steps], targets one word on) and the windows in one pass."""
    passes = (len(text) // batch - 1) // steps
    with tf.name_scope(name):
        words = tf.convert_to_tensor(text, name="words", dtype=tf.int32)
        columns = tf.size(words) // batch
        rows = tf.reshape(words[:batch * columns], [batch, columns])
        count = (columns - 1) // steps
        check = tf.assert_positive(count, message="no whole window: make the batch or the steps smaller")
        with tf.control_dependencies([check]):
            count = tf.identity(count, name="windows")
        at = tf.cast(tf.data.Dataset.range(passes).repeat().make_one_shot_iterator().get_next(), tf.int32)
        cut = []
        for shift in (0, 1):
            piece = tf.strided_slice(rows, [0, at * steps + shift], [batch, (at + 1) * steps + shift])
            piece.set_shape([batch, steps])
            cut.append(piece)
    return cut[0], cut[1], passes


def language_model(training, settings, text, name):
    batch, steps, width = settings["batch"], settings["steps"], settings["width"]
    inputs, targets, passes = windows(text, batch, steps, name)

    def one_layer():
        layer = tf.contrib.rnn.BasicLSTMCell(width, forget_bias=0.0, state_is_tuple=True, reuse=not training)
        if training and settings["keep"] < 1:
            layer = tf.contrib.rnn.DropoutWrapper(layer, output_keep_prob=settings["keep"])
        return layer

    stack = tf.contrib.rnn.MultiRNNCell([one_layer() for _ in range(settings["layers"])], state_is_tuple=True)
    start = stack.zero_state(batch, float_type())
    with tf.device("/cpu:0"):
        table = tf.get_variable("embedding", [settings["words"], width], dtype=float_type())
        vectors = tf.nn.embedding_lookup(table, inputs)
    if training and settings["keep"] < 1:
        vectors = tf.nn.dropout(vectors, settings["keep"])
    state, outputs = start, []
    with tf.variable_scope("RNN"):
        for t in range(steps):
            if t:
                tf.get_variable_scope().reuse_variables()
            output, state = stack(vectors[:, t, :], state)
            outputs.append(output)
    flat = tf.reshape(tf.stack(outputs, axis=1), [-1, width])
    logits = tf.matmul(flat, tf.get_variable("softmax_w", [width, settings["words"]], dtype=float_type()))
    logits = tf.reshape(logits + tf.get_variable("softmax_b", [settings["words"]], dtype=float_type()),
                        [batch, steps, settings["words"]])
    per_step = tf.contrib.seq2seq.sequence_loss(logits, targets, tf.ones([batch, steps], dtype=float_type()),
                                                average_across_timesteps=False, average_across_batch=True)
    model = types.SimpleNamespace(cost=tf.reduce_sum(per_step), start=start, end=state, passes=passes,
                                  steps=steps, batch=batch, update=None)
    if training:
        model.rate = tf.Variable(0.0, trainable=False)
        weights = tf.trainable_variables()
        clipped, _ = tf.clip_by_global_norm(tf.gradients(model.cost, weights), settings["clip"])
        model.update = tf.train.GradientDescentOptimizer(model.rate).apply_gradients(
            zip(clipped, weights), global_step=tf.train.get_or_create_global_step())
        model.new_rate = tf.placeholder(tf.float32, shape=[], name="new_rate")
        model.set_rate = tf.assign(model.rate, model.new_rate)
    return model


def perplexity(session, model, report=False):
    """One pass over the model's text, each window starting from the state the last one ended in."""
    state, total, words = session.run(model.start), 0.0, 0
    wanted = {"cost": model.cost, "end": model.end}
    if model.update is not None:
        wanted["update"] = model.update
    for n in range(model.passes):
        feed = {}
        for layer_start, value in zip(model.start, state):
            feed[layer_start.c], feed[layer_start.h] = value.c, value.h
        got = session.run(wanted, feed)
        state, total, words = got["end"], total + got["cost"], words + model.steps
        if report and n % 25 == 24:
            print("  %d%% through, running perplexity %.3f" % (100 * (n + 1) // model.passes,
                                                             np.exp(total / words)))
    return np.exp(total / words)


def main(_):
    if not FLAGS.data_path:
        raise ValueError("--data_path is required (any value: the text is generated)")
    train_text, valid_text, test_text = make_texts()
    settings = dict(TRAINING)
    single = dict(TRAINING, batch=1, steps=1)
    with tf.Graph().as_default():
        start_values = tf.random_uniform_initializer(-settings["scale"], settings["scale"])
        models = {}
        for scope, text, config, training in (("Train", train_text, settings, True),
                                              ("Valid", valid_text, settings, False),
                                              ("Test", test_text, single, False)):
            with tf.name_scope(scope):  # entered once: a second `with` would make Train_1
                with tf.variable_scope("LM", reuse=None if training else True, initializer=start_values):
                    models[scope] = language_model(training, config, text, scope + "Windows")
                if scope != "Test":
                    tf.summary.scalar(scope + " Cost", models[scope].cost)
                if training:
                    tf.summary.scalar("Step Size", models[scope].rate)
        print("trainable variables:", [v.op.name for v in tf.trainable_variables()])

        supervisor = tf.train.Supervisor(logdir=FLAGS.save_path)
        with supervisor.managed_session() as session:
            trainer = models["Train"]
            for epoch in range(1, settings["epochs"] + 1):
                factor = settings["decay"] ** max(epoch - settings["full_rate_epochs"], 0)
                session.run(trainer.set_rate, {trainer.new_rate: settings["rate"] * factor})
                print("epoch %d: learning rate %.3f" % (epoch, session.run(trainer.rate)))
                print("epoch %d: training perplexity %.3f" % (epoch, perplexity(session, trainer, report=True)))
                print("epoch %d: validation perplexity %.3f" % (epoch, perplexity(session, models["Valid"])))
            print("test perplexity %.3f" % perplexity(session, models["Test"]))
            if FLAGS.save_path:
                print("saving to %s" % FLAGS.save_path)
                supervisor.saver.save(session, FLAGS.save_path, global_step=supervisor.global_step)


if __name__ == "__main__":
    tf.app.run()
