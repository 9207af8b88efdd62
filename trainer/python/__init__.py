"""TF1 modules programs import by their tensorflow.python path: tensorflow.python.client.timeline and
tensorflow.python.ops.resources (trainer.python.client.timeline, trainer.python.ops.resources)."""
