"""`python -m trainer.as_tensorflow [--keras] PROGRAM.py ARGS...` (or `-m MODULE ARGS...`): run an unmodified TF1
program with ringflow as tensorflow, as `python PROGRAM.py ARGS...` would run it; --keras: and with tg.keras as
the standalone `keras` package."""
import os
import runpy
import sys

from . import install

USAGE = ("usage: python -m trainer.as_tensorflow PROGRAM.py [ARGS...]\n"
         "       python -m trainer.as_tensorflow -m MODULE [ARGS...]\n"
         "       python -m trainer.as_tensorflow --keras (PROGRAM.py | -m MODULE) [ARGS...]\n"
         "Runs an unmodified TensorFlow 1 program with ringflow as tensorflow (and horovod.tensorflow,\n"
         "horovod.keras); --keras (or RINGFLOW_KERAS=1): tg.keras as the standalone `keras` package too.")


def main(argv):
    keras = None
    if argv and argv[0] == "--keras":
        keras, argv = True, argv[1:]
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] == "-m":
        if len(argv) < 2:
            print(f"{USAGE}\nerror: -m needs a module name", file=sys.stderr)
            return 2
        install(keras=keras)
        sys.argv = [argv[1], *argv[2:]]
        sys.path[0] = os.getcwd()
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        return 0
    program = argv[0]
    if not os.path.isfile(program):
        print(f"python -m trainer.as_tensorflow: can't open file {os.path.abspath(program)!r}: no such file",
              file=sys.stderr)
        return 2
    install(keras=keras)
    sys.argv = [program, *argv[1:]]
    sys.path[0] = os.path.dirname(os.path.abspath(program))  # as `python PROGRAM.py` puts the program's folder
    runpy.run_path(program, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
