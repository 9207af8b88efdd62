"""Binary classification of word-id sequences with tf.keras, as TF 1.x users classify reviews: reviews in
keras.datasets.imdb's layout (corpus_data.imdb_like: synthetic words, so a run needs no download), padded with
keras.preprocessing.sequence.pad_sequences, embedded, pooled or read by an LSTM over a mask, trained with a
tf.train optimizer and a held-out slice as validation_data, then evaluated; the History's keys and last
validation accuracy are printed. `python keras_reviews.py lstm` swaps the average pooling for
Embedding(mask_zero=True) + LSTM(16) over reviews cut to 64 words."""
import sys

import numpy as np
import tensorflow as tf
from tensorflow import keras

import corpus_data

np.random.seed(0)
tf.set_random_seed(0)
recurrent = sys.argv[1:] == ["lstm"]
length, vocabulary = (64 if recurrent else 256), 10000

(reviews, sentiment), (test_reviews, test_sentiment) = corpus_data.imdb_like(num_words=vocabulary)
print("reviews: {}, sentiments: {}".format(len(reviews), len(sentiment)))
print("first review starts", reviews[0][:10])
print("lengths before padding", len(reviews[0]), len(reviews[1]))


def padded(batch):
    return keras.preprocessing.sequence.pad_sequences(batch, maxlen=length, padding="post", value=0)


reviews, test_reviews = padded(reviews), padded(test_reviews)
print("lengths after padding", len(reviews[0]), len(reviews[1]))

layers = [keras.layers.Embedding(vocabulary, 16, mask_zero=recurrent),
          keras.layers.LSTM(16) if recurrent else keras.layers.GlobalAveragePooling1D(),
          keras.layers.Dense(16, activation=tf.nn.relu),
          keras.layers.Dense(1, activation=tf.nn.sigmoid)]
model = keras.Sequential(layers)
model.compile(optimizer=tf.train.AdamOptimizer(), loss="binary_crossentropy", metrics=["accuracy"])

held = 1000
history = model.fit(reviews[held:], sentiment[held:], validation_data=(reviews[:held], sentiment[:held]),
                    epochs=5 if recurrent else 40, batch_size=64 if recurrent else 512, verbose=2)
model.summary()
print("test [loss, accuracy]:", model.evaluate(test_reviews, test_sentiment, verbose=0))
print("history keys:", sorted(history.history))
print("last val_acc: {:.4f}".format(history.history["val_acc"][-1]))
