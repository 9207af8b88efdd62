"""tf.train.Server.create_local_server(): a one-task in-process cluster whose `target` a tf.Session connects to,
once held open and once as a context manager feeding a placeholder."""
import tensorflow as tf

server = tf.train.Server.create_local_server()
message = tf.constant("Hello from a local server")
held = tf.Session(server.target)
print(held.run(message))

scale = tf.placeholder(tf.float32)
with tf.Session(server.target) as session:
    print(session.run(scale * 3.0, feed_dict={scale: 7.0}))
held.close()
