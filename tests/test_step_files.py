"""scripts/step_files.py lists the project files one training step of the MLP runs code from."""
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_one_step_runs_the_session_and_not_the_builders():
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "step_files.py"), "--hidden", "8", "--features", "16",
                           "--batch", "4", "--steps", "1"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    head, *rows = done.stdout.splitlines()
    files = [row.strip() for row in rows]
    count = int(head.split(" from ")[1].split()[0])
    assert count == len(files) > 0 and files == sorted(files)
    assert "trainer/client/session.py" in files
    # the trace covers the step alone: the model was built and the gradients taken before it
    assert "models/mlp.py" not in files and "trainer/ops/gradients.py" not in files
