"""tensorflow.python.tools: freeze_graph, the checkpoint-into-constants tool TF1 serving tutorials run."""
