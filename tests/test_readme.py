"""The graph-API example in README.md runs and fits y = 2x."""
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_graph_example_fits_the_line(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    example = next(b for b in blocks if "GradientDescentOptimizer" in b and "tg.Session()" in b)
    namespace = {}
    exec(example, namespace)
    out = capsys.readouterr().out
    name, w, b = out.split()
    assert name == "linear/w:0"
    w, b = float(w), float(b)
    assert abs(w - 2.0) < 0.1 and abs(b) < 0.1
