"""The seed notebook: y = 2x + 0.3 noise, per-sample SGD (lr 0.01) for 20 epochs reaches W ~ 2 and b ~ 0."""
import os
import pathlib
import subprocess
import sys

from scripts.linear_regression import fit

ROOT = str(pathlib.Path(__file__).resolve().parents[3])  # the repository


def test_linear_regression_learns_the_slope():
    for seed in (0, 1):
        w, b, cost = fit(seed=seed)
        assert abs(w - 2) < 0.15 and abs(b) < 0.15 and cost < 0.15, (seed, w, b, cost)


def test_linear_regression_script_runs():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "linear_regression.py"), "--epochs", "3"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert "Finished" in out and "W=" in out
