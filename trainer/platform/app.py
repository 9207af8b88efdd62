"""tg.app: `run(main)` parses the flags from argv, then exits with main's return value, as TF1's tf.app.run."""
import sys

from . import flags

_HELP_FLAGS = (("help", "?", "show this help"), ("helpshort", None, "show this help (same as --help)"),
               ("helpfull", None, "show help on every flag, from every module"))
_program = None  # argv[0] of the running tg.app.run, for the help text


def run(main=None, argv=None):
    """Parse known flags from argv (default sys.argv), call main(remaining argv), sys.exit with its result.

    As in TF1, flags nobody defined are not an error here: they stay in the argv that main receives (so
    argparse can own them). A bad value for a defined flag, or a missing required flag, prints
    "FATAL Flags parsing error: ..." and exits with status 1.
    """
    if main is None:
        main = getattr(sys.modules["__main__"], "main", None)
        if main is None:
            raise AttributeError("tg.app.run() without main= calls __main__.main, which this program does not "
                                 "define: define main(argv) or pass run(main=...)")
    argv = sys.argv if argv is None else argv
    _define_help_flags(argv[0] if argv else None)
    try:
        remaining = flags.FLAGS(argv, known_only=True)
    except flags.Error as error:
        sys.stderr.write(f"FATAL Flags parsing error: {error}\n"
                         "Pass --helpshort or --helpfull to see help on flags.\n")
        sys.exit(1)
    sys.exit(main(remaining))


def usage(full=False, program=None):
    """The help text: __main__'s docstring (or a USAGE line) and the flags (__main__'s, or all when full)."""
    program = program or (sys.argv[0] if sys.argv and sys.argv[0] else "program")
    doc = getattr(sys.modules.get("__main__"), "__doc__", None) or f"\nUSAGE: {program} [flags]\n"
    listing = flags.FLAGS.get_help() if full else flags.FLAGS.main_module_help()
    return doc + ("\nflags:\n" + listing + "\n" if listing else "")


def _define_help_flags(program):
    """--help/-?/-h/--helpshort print __main__'s flags, --helpfull every flag; all then exit with status 0."""
    global _program
    _program = program
    for name, short_name, text in _HELP_FLAGS:
        if name not in flags.FLAGS:
            flags.DEFINE_boolean(name, False, text, short_name=short_name, on_parse=_show_help(name == "helpfull"))
            if name == "help" and "h" not in flags.FLAGS:  # absl knows only -?; TF1 users type -h too
                flags.FLAGS.add_alias("h", "help")


def _show_help(full):
    def show(value):
        if value:
            tail = "" if full else "\nTry --helpfull to get a list of all flags.\n"
            sys.stdout.write(usage(full, _program) + tail)
            sys.exit(0)
    return show
