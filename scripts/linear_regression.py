"""The seed example: fit y = 2x + 0.3·noise on 100 points with per-sample SGD (lr 0.01, 20 epochs)."""
import argparse

import numpy as np

import trainer as tg


def fit(epochs=20, learning_rate=0.01, seed=0, verbose=False):
    """Train W, b on the seed's data one sample at a time; returns (W, b, final cost)."""
    rng = np.random.default_rng(seed)
    train_x = np.linspace(-1, 1, 100)
    train_y = 2 * train_x + rng.standard_normal(train_x.shape) * 0.3
    graph = tg.Graph()
    with graph.as_default():
        tg.set_random_seed(seed)
        x = tg.placeholder("float")
        y = tg.placeholder("float")
        w = tg.Variable(tg.random_normal([1]), name="weight")
        b = tg.Variable(tg.zeros([1]), name="bias")
        z = tg.multiply(x, w) + b
        cost = tg.reduce_mean(tg.square(y - z))
        optimizer = tg.train.GradientDescentOptimizer(learning_rate).minimize(cost)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for epoch in range(epochs):
                for sample_x, sample_y in zip(train_x, train_y):
                    sess.run(optimizer, feed_dict={x: sample_x, y: sample_y})
                if verbose and epoch % 2 == 0:
                    loss = sess.run(cost, feed_dict={x: train_x, y: train_y})
                    print("Epoch:", epoch + 1, "cost=", loss, "W=", sess.run(w), "b=", sess.run(b))
            final = sess.run([w, b, cost], feed_dict={x: train_x, y: train_y})
    return final[0][0], final[1][0], final[2]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    w, b, cost = fit(args.epochs, args.lr, args.seed, verbose=True)
    print(" Finished")
    print("cost=", cost, "W=", w, "b=", b)


if __name__ == "__main__":
    main()
