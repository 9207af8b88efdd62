"""The classic TF1 "MNIST rows as a sequence with an LSTM" program (tests/tf1_programs/lstm_mnist_rows.py), run
as a real process: it must finish, create TF1's variable names and learn."""
from .test_tf1_programs import number, run_program


def test_lstm_mnist_rows_learns(tmp_path):
    out = run_program("lstm_mnist_rows.py", cwd=tmp_path)
    assert "rnn/basic_lstm_cell/kernel [92, 256], rnn/basic_lstm_cell/bias [256]" in out
    first = number(r"Step 1, Minibatch Loss= ([\d.]+)", out)
    last = number(r"Step 100, Minibatch Loss= ([\d.]+)", out)
    assert first > 1.5 and last < 0.5 * first, (first, last)
    assert number(r"Testing Accuracy: ([\d.]+)", out) > 0.9
