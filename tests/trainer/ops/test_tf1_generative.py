"""A tiny VAE and a tiny GAN written as public TF1 examples write them (only the import differs): sampling with
Tensor shapes and parameters, the reparameterisation trick, a discriminator built twice with reuse=True, variable
lists by scope. Each trains on synthetic data with fixed seeds."""
import numpy as np

import trainer as tf


def _vae_data(rng, n=256, dim=16):
    prototypes = (rng.random((4, dim)) > 0.5).astype(np.float32)
    return prototypes[rng.integers(0, 4, n)]


def test_tiny_vae_trains_and_decodes_from_the_prior():
    rng = np.random.default_rng(0)
    data = _vae_data(rng)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [None, 16], name="x")
        with tf.variable_scope("encoder"):
            h = tf.layers.dense(x, 32, activation=tf.nn.relu)
            z_mean = tf.layers.dense(h, 2)
            z_log_var = tf.layers.dense(h, 2)
        eps = tf.random_normal(tf.shape(z_mean), 0.0, 1.0, dtype=tf.float32)
        z = z_mean + tf.exp(z_log_var * 0.5) * eps

        def decoder(code, reuse=False):
            with tf.variable_scope("decoder", reuse=reuse):
                return tf.layers.dense(tf.layers.dense(code, 32, activation=tf.nn.relu), 16)

        logits = decoder(z)
        recon = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=logits), axis=1)
        kl = -0.5 * tf.reduce_sum(1.0 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var), axis=1)
        loss = tf.reduce_mean(recon + kl)
        train = tf.train.AdamOptimizer(0.01).minimize(loss)
        samples = tf.nn.sigmoid(decoder(tf.random_normal([8, 2]), reuse=True))
        assert len(tf.trainable_variables()) == 10  # the prior's decoder adds none
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            first = np.mean([sess.run(loss, {x: data}) for _ in range(5)])
            for step in range(300):
                batch = data[rng.integers(0, len(data), 64)]
                sess.run(train, {x: batch})
            last = np.mean([sess.run(loss, {x: data}) for _ in range(5)])
            drawn = sess.run(samples)
    assert last < 0.6 * first, (first, last)
    assert drawn.shape == (8, 16) and np.all((drawn >= 0) & (drawn <= 1))


def test_tiny_gan_moves_its_samples_to_the_data():
    rng = np.random.default_rng(0)
    with tf.Graph().as_default():
        tf.set_random_seed(2)
        real = tf.placeholder(tf.float32, [None, 1], name="real")
        batch_size = tf.shape(real)[0]
        noise = tf.random_uniform([batch_size, 4], minval=-1.0, maxval=1.0)

        def generator(z):
            with tf.variable_scope("Generator"):
                return tf.layers.dense(tf.layers.dense(z, 16, activation=tf.nn.leaky_relu), 1)

        def discriminator(v, reuse=False):
            with tf.variable_scope("Discriminator", reuse=reuse):
                return tf.layers.dense(tf.layers.dense(v, 16, activation=tf.nn.leaky_relu), 1)

        fake = generator(noise)
        d_real, d_fake = discriminator(real), discriminator(fake, reuse=True)
        bce = tf.nn.sigmoid_cross_entropy_with_logits
        d_loss = tf.reduce_mean(bce(labels=tf.ones_like(d_real), logits=d_real)) + \
            tf.reduce_mean(bce(labels=tf.zeros_like(d_fake), logits=d_fake))
        g_loss = tf.reduce_mean(bce(labels=tf.ones_like(d_fake), logits=d_fake))
        d_vars = [v for v in tf.trainable_variables() if v.name.startswith("Discriminator")]
        g_vars = [v for v in tf.trainable_variables() if v.name.startswith("Generator")]
        assert len(d_vars) == len(g_vars) == 4
        d_train = tf.train.AdamOptimizer(0.01, beta1=0.5).minimize(d_loss, var_list=d_vars)
        g_train = tf.train.AdamOptimizer(0.01, beta1=0.5).minimize(g_loss, var_list=g_vars)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            before = sess.run(fake, {real: np.zeros((512, 1))}).mean()
            for step in range(400):
                batch = rng.normal(3.0, 0.5, (64, 1))
                sess.run(d_train, {real: batch})
                sess.run(g_train, {real: batch})
            after = sess.run(fake, {real: np.zeros((512, 1))})
    assert abs(before - 3.0) > 2.0
    assert abs(after.mean() - 3.0) < 0.5, after.mean()
