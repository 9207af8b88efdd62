"""Export the first training step of each program of tests/tf1_corpus under ringflow, for
`scripts/record_tf_files.py check-models DIR` to run again in real TensorFlow:

    python scripts/ringflow_tf_corpus.py DIR [PROGRAM.py ...]

Each program runs as tests/test_tf1_corpus.py runs it (`python -m trainer.as_tensorflow`, in a folder of its own
under DIR), through this script's --step mode: the first Session.run that updates variables (an op of the training
ops' types among what it runs) is preceded by export_meta_graph and a checkpoint of the variables, and its fetched
numbers are kept, with its feeds, in DIR/<program>/step.json; DIR/models.json lists every program's step as
check-models reads it (one step, to 1e-4; a graph of unseeded random ops draws other numbers in every run, in
TensorFlow too, so its step only runs), and the .meta files the programs wrote themselves (Savers, Estimators),
which check-models imports. Programs that feed their step from a queue or tf.data or run no step are listed as such;
those of several processes (Horovod's, the cluster's) are left out.
"""
import json
import os
import runpy
import subprocess
import sys

import numpy as np

import trainer as tg

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "tf1_corpus")
# helpers, not programs; and programs of several processes (mpiexec, a cluster), which tests/test_tf1_corpus.py runs
SKIPPED = ("corpus_data.py", "record_real_keras.py", "distributed_hello.py", "distributed_ps_local.py",
           "horovod_tensorflow_mnist.py", "horovod_tensorflow_mnist_estimator.py",
           "horovod_tensorflow_synthetic_benchmark.py")
STEP = "first_step.ckpt"  # a name of its own: a program's Saver writes model.ckpt beside it
TRAINING = ("Apply", "ResourceApply", "AssignAdd", "AssignSub", "ScatterAdd", "ScatterSub")


def _fetch_names(fetches, out):
    """The names of a Session.run's fetches (a Tensor, an Operation, a name, nested lists, tuples and dicts)."""
    if isinstance(fetches, (list, tuple)):
        for f in fetches:
            _fetch_names(f, out)
    elif isinstance(fetches, dict):
        for f in fetches.values():
            _fetch_names(f, out)
    elif fetches is not None:
        out.append(fetches if isinstance(fetches, str) else fetches.name)
    return out


def step_mode(directory, program, args):
    """Run `program` (ringflow as tensorflow), exporting its first training step into `directory`."""
    run, done = tg.Session.run, []

    def capture(sess, fetches, feed_dict=None, options=None, run_metadata=None):
        if done or not feed_dict:
            return run(sess, fetches, feed_dict, options, run_metadata)
        names = _fetch_names(fetches, [])
        graph = sess.graph
        ops = [graph.as_graph_element(n) for n in names]
        ops = [o if isinstance(o, tg.Operation) else o.op for o in ops]
        seen, todo, trains = set(), list(ops), False
        while todo and not trains:
            op = todo.pop()
            if op.name in seen:
                continue
            seen.add(op.name)
            trains = op.type.startswith(TRAINING)
            todo.extend(t.op for t in op.inputs)
            todo.extend(op.control_inputs)
        if not trains:
            return run(sess, fetches, feed_dict, options, run_metadata)
        done.append(True)
        with graph.as_default():
            saver = tg.train.Saver(tg.global_variables() + tg.local_variables(), max_to_keep=None)
            prefix = saver.save(sess, os.path.join(directory, STEP))
        feeds = {(k if isinstance(k, str) else k.name): np.asarray(v) for k, v in feed_dict.items()}
        runs, todo = set(), list(ops)  # every op the step runs
        while todo:
            o = todo.pop()
            if o.name not in runs:
                runs.add(o.name)
                todo.extend([t.op for t in o.inputs] + list(o.control_inputs))
        unseeded = sorted({o.type for o in graph.get_operations() if o.name in runs and "seed2" in o.attrs
                           and not o.attrs.get("seed") and not o.attrs.get("seed2")})
        outputs = run(sess, names, feed_dict)
        numbers = [float(np.mean(v)) if v is not None and np.asarray(v).dtype.kind == "f" else None for v in outputs]
        with open(os.path.join(directory, "step.json"), "w") as f:
            json.dump({"prefix": os.path.basename(prefix), "fetches": names, "numbers": numbers, "unseeded": unseeded,
                       "feeds": {k: {"value": v.tolist(), "dtype": v.dtype.name} for k, v in feeds.items()
                                 if v.dtype != object}}, f)
        return run(sess, fetches, feed_dict, options, run_metadata)  # the program's own step, as it asked

    tg.Session.run = capture  # a diagnostic of this script's own process: the program runs unchanged
    sys.argv = [program, *args]
    sys.path[0] = os.path.dirname(os.path.abspath(program))
    runpy.run_path(program, run_name="__main__")


def main(directory, programs):
    os.makedirs(directory, exist_ok=True)
    programs = programs or sorted(p for p in os.listdir(CORPUS) if p.endswith(".py") and p not in SKIPPED)
    models, left = {}, {}
    root = os.path.abspath(os.path.join(CORPUS, "..", ".."))
    for name in programs:
        out = os.path.abspath(os.path.join(directory, name[:-3]))
        os.makedirs(out, exist_ok=True)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.path.abspath(CORPUS)]))
        done = subprocess.run([sys.executable, "-m", "trainer.as_tensorflow", os.path.abspath(__file__), "--step",
                               out, os.path.abspath(os.path.join(CORPUS, name))], cwd=out, env=env,
                              capture_output=True, text=True, timeout=120)
        for folder, _, files in os.walk(out):  # the .meta files the program wrote itself (Saver, Estimator)
            for meta in sorted(f for f in files if f.endswith(".meta") and f != STEP + ".meta"):
                path = os.path.relpath(os.path.join(folder, meta[:-5]), directory)
                models[f"{name[:-3]}: {os.path.relpath(path, name[:-3])}.meta"] = {"prefix": path, "import_only": True}
        step = os.path.join(out, "step.json")
        if not os.path.exists(step):
            left[name] = "no step fed by a feed dict" if done.returncode == 0 else \
                f"did not run here: {(done.stderr.strip().splitlines() or [''])[-1][:200]}"
            print(f"--   {name}: {left[name]}")
            continue
        with open(step) as f:
            record = json.load(f)
        kept = [(n, v) for n, v in zip(record["fetches"], record["numbers"]) if v is not None]
        models[name[:-3]] = {"prefix": os.path.join(name[:-3], record["prefix"]), "feeds": record["feeds"],
                             "fetches": [n for n, _ in kept], "numbers": [v for _, v in kept], "tolerance": 1e-4,
                             "unseeded": record["unseeded"]}
        print(f"wrote {name}: fetches {record['fetches']}")
    with open(os.path.join(directory, "models.json"), "w") as f:
        json.dump({"models": models, "left": left}, f, indent=1)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "--step":
        step_mode(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) >= 2 and not sys.argv[1].startswith("-"):
        main(sys.argv[1], sys.argv[2:])
    else:
        sys.exit(__doc__)
