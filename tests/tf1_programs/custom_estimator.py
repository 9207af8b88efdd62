"""An Estimator with a custom model_fn, written like TensorFlow's "Creating Custom Estimators" iris example.

Ported from TensorFlow 1: `import tensorflow as tf` became `import trainer as tf`; the iris CSV download became
synthetic iris-like data (three Gaussian classes around the species' mean measurements); the tf.data input
functions became tf.estimator.inputs.numpy_input_fn; and tf.feature_column.input_layer (feature columns are
missing in ringflow) became a tf.stack of the numeric feature columns.
"""
import argparse
import sys

import numpy as np

import trainer as tf

CSV_COLUMN_NAMES = ['SepalLength', 'SepalWidth', 'PetalLength', 'PetalWidth', 'Species']
SPECIES = ['Setosa', 'Versicolor', 'Virginica']
MEANS = np.array([[5.0, 3.4, 1.5, 0.25], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]])
STDDEVS = np.array([[0.35, 0.38, 0.17, 0.1], [0.5, 0.3, 0.47, 0.2], [0.6, 0.3, 0.55, 0.27]])

parser = argparse.ArgumentParser()
parser.add_argument('--batch_size', default=100, type=int, help='batch size')
parser.add_argument('--train_steps', default=1000, type=int, help='number of training steps')
parser.add_argument('--model_dir', default='iris_model', help='where the estimator writes')
parser.add_argument('--tf_random_seed', default=None, type=int, help='the graph-level seed (none: new weights each run)')


def load_data(seed=0):
    """((train_x, train_y), (test_x, test_y)): 120 and 30 examples, features as a dict of columns."""
    rng = np.random.RandomState(seed)

    def draw(n):
        y = rng.randint(3, size=n)
        x = MEANS[y] + STDDEVS[y] * rng.normal(size=(n, 4))
        return {name: x[:, i] for i, name in enumerate(CSV_COLUMN_NAMES[:4])}, y
    return draw(120), draw(30)


def my_model(features, labels, mode, params):
    """DNN with hidden layers params['hidden_units'] and learning_rate=0.1."""
    net = tf.stack([tf.cast(features[key], tf.float32) for key in params['feature_columns']], axis=1)
    for units in params['hidden_units']:
        net = tf.layers.dense(net, units=units, activation=tf.nn.relu)
    logits = tf.layers.dense(net, params['n_classes'], activation=None)

    predicted_classes = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        predictions = {
            'class_ids': predicted_classes[:, tf.newaxis],
            'probabilities': tf.nn.softmax(logits),
            'logits': logits,
        }
        return tf.estimator.EstimatorSpec(mode, predictions=predictions)

    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    accuracy = tf.metrics.accuracy(labels=labels, predictions=predicted_classes, name='acc_op')
    metrics = {'accuracy': accuracy}
    tf.summary.scalar('accuracy', accuracy[1])

    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops=metrics)

    assert mode == tf.estimator.ModeKeys.TRAIN
    optimizer = tf.train.AdagradOptimizer(learning_rate=0.1)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def main(argv):
    args = parser.parse_args(argv[1:])
    (train_x, train_y), (test_x, test_y) = load_data()

    classifier = tf.estimator.Estimator(
        model_fn=my_model,
        model_dir=args.model_dir,
        params={
            'feature_columns': CSV_COLUMN_NAMES[:4],
            'hidden_units': [10, 10],
            'n_classes': 3,
        },
        config=tf.estimator.RunConfig(tf_random_seed=args.tf_random_seed))

    classifier.train(
        input_fn=tf.estimator.inputs.numpy_input_fn(train_x, train_y, batch_size=args.batch_size,
                                                    num_epochs=None, shuffle=True),
        steps=args.train_steps)

    eval_result = classifier.evaluate(
        input_fn=tf.estimator.inputs.numpy_input_fn(test_x, test_y, batch_size=args.batch_size,
                                                    num_epochs=1, shuffle=False))
    print('\nTest set accuracy: {accuracy:0.3f}\n'.format(**eval_result))

    expected = ['Setosa', 'Versicolor', 'Virginica']
    predict_x = {
        'SepalLength': np.array([5.1, 5.9, 6.9]),
        'SepalWidth': np.array([3.3, 3.0, 3.1]),
        'PetalLength': np.array([1.7, 4.2, 5.4]),
        'PetalWidth': np.array([0.5, 1.5, 2.1]),
    }
    predictions = classifier.predict(
        input_fn=tf.estimator.inputs.numpy_input_fn(predict_x, batch_size=args.batch_size, num_epochs=1,
                                                    shuffle=False))
    for pred_dict, expec in zip(predictions, expected):
        template = '\nPrediction is "{}" ({:.1f}%), expected "{}"'
        class_id = pred_dict['class_ids'][0]
        probability = pred_dict['probabilities'][class_id]
        print(template.format(SPECIES[class_id], 100 * probability, expec))


if __name__ == '__main__':
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run(main=main, argv=sys.argv)
