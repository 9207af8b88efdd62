"""The flag registry behind tg.flags: Flag, FlagValues (absl's parsing rules) and the flags errors."""
import difflib
import sys


class Error(Exception):
    """Base of every flags error."""


class DuplicateFlagError(Error):
    """A flag name was defined twice."""


class IllegalFlagValueError(Error):
    """A flag was given a value it cannot take."""


class UnrecognizedFlagError(Error):
    """The command line named a flag nobody defined."""

    def __init__(self, flagname, flagvalue="", suggestions=()):
        self.flagname, self.flagvalue = flagname, flagvalue
        hint = f". Did you mean: {', '.join(suggestions)} ?" if suggestions else ""
        super().__init__(f"Unknown command line flag {flagname!r}{hint}")


class UnparsedFlagAccessError(Error):
    """A flag was read before the command line was parsed (only on FlagValues(implicit_parse=False))."""


ValidationError = IllegalFlagValueError


class Flag:
    """One flag: name, help, default, how text becomes a value, and the current value."""

    def __init__(self, name, default, help, convert, kind, boolean=False, multi=False, short_name=None,
                 on_parse=None):
        self.name, self.help, self.short_name = name, help or "(no help available)", short_name
        self.convert, self.kind, self.boolean, self.multi = convert, kind, boolean, multi
        self.on_parse, self.module = on_parse, None
        self.default = None if default is None else self._converted(default)
        self.unparse()

    def _converted(self, raw):
        items = raw if self.multi and isinstance(raw, (list, tuple)) else [raw]
        try:
            values = [self.convert(item) for item in items]
        except (TypeError, ValueError) as exc:
            raise IllegalFlagValueError(f"flag --{self.name}={raw!r}: {exc}") from None
        return values if self.multi else values[0]

    def parse(self, text):
        value = self._converted(text)
        if self.multi and self.present:
            value = self.value + value
        self.value, self.present, self.using_default_value = value, self.present + 1, False
        if self.on_parse is not None:
            self.on_parse(value)

    def unparse(self):
        self.value = list(self.default) if self.multi and self.default is not None else self.default
        self.present, self.using_default_value = 0, True

    def describe(self):
        head = f"--[no]{self.name}" if self.boolean else f"--{self.name}"
        if self.short_name:
            head = f"-{self.short_name},{head}"
        text = f"  {head}: {self.help}\n    (default: {self.default!r})"
        return text + (f"\n    ({self.kind})" if self.kind else "")


class FlagValues:
    """The registry of flags and their parsed values; `FLAGS(argv)` parses and returns the leftover args."""

    def __init__(self, implicit_parse=False):
        self.__dict__.update(_flags={}, _parsed=False, _validators=[], _implicit_parse=implicit_parse)

    def __call__(self, argv, known_only=False):
        if isinstance(argv, str) or not isinstance(argv, (list, tuple)):
            raise TypeError(f"argv should be a list or tuple of strings, got {argv!r}")
        if not argv:
            raise ValueError("argv cannot be empty: it must start with the program name")
        leftover = self._parse_args(_expand_flagfiles(list(argv[1:])), known_only)
        self.mark_as_parsed()
        self.validate_all_flags()
        return [argv[0]] + leftover

    def _parse_args(self, args, known_only):
        leftover, undefok = [], set()  # leftover: (flag name or None for a positional, arg)
        args = iter(args)
        for arg in args:
            if arg == "--":
                leftover += [(None, a) for a in ([arg] if known_only else []) + list(args)]
                break
            if not arg.startswith("-") or arg.strip("-") == "":
                leftover.append((None, arg))
                continue
            name, has_value, value = arg.lstrip("-").partition("=")
            if name == "undefok":
                names = value if has_value else next(args, "")
                undefok.update(n.strip() for n in names.split(",") if n.strip())
                continue
            flag = self._flags.get(name)
            if flag is None and name.startswith("no") and getattr(self._flags.get(name[2:]), "boolean", False):
                if has_value:
                    raise IllegalFlagValueError(f"{arg!r}: the negated boolean flag takes no value")
                flag, has_value, value = self._flags[name[2:]], True, "false"
            if flag is None:
                leftover.append((name, arg))
                continue
            if not has_value:
                value = "true" if flag.boolean else next(args, None)
                if value is None:
                    raise IllegalFlagValueError(f"Missing value for flag {arg}: pass {arg}=VALUE")
            flag.parse(value)
        leftover = [(name, arg) for name, arg in leftover
                    if name is None or not (name in undefok or name.startswith("no") and name[2:] in undefok)]
        unknown = [(name, arg) for name, arg in leftover if name is not None]
        if unknown and not known_only:
            name, arg = unknown[0]
            raise UnrecognizedFlagError(name, arg, difflib.get_close_matches(name, list(self._flags), n=3))
        return [arg for name, arg in leftover]

    def register(self, flag, module):
        """Add `flag`, defined by `module` ((name, id of its globals)); returns the flag now registered.

        A second definition is an error, except from a second import of the same module (absl's rule): the
        first definition, with its parsed value, then stays.
        """
        old = self._flags.get(flag.name)
        if old is not None and old.module[0] == module[0] and None not in (module[1], old.module[1]) \
                and old.module[1] != module[1]:
            return old
        for key in filter(None, (flag.name, flag.short_name)):
            if key in self._flags:
                first = self._flags[key].module[0]
                raise DuplicateFlagError(
                    f"The flag {key!r} is defined twice: first in {first}, again in {module[0]}. Define it "
                    f"once; to redefine it on purpose (a re-run notebook cell), `del FLAGS.{key}` first")
        flag.module = module
        self._flags[flag.name] = flag
        if flag.short_name:
            self._flags[flag.short_name] = flag
        return flag

    def add_alias(self, alias, name):
        """Make --alias another spelling of the defined flag --name."""
        if alias in self._flags:
            raise DuplicateFlagError(f"cannot make {alias!r} an alias of {name!r}: a flag {alias!r} exists")
        self._flags[alias] = self._flags[name]

    def __getattr__(self, name):
        if name.startswith("__"):  # copy/pickle probing a half-built object: not a flag
            raise AttributeError(name)
        flags = self.__dict__["_flags"]
        if name not in flags:
            raise AttributeError(f"no flag named {name!r} is defined")
        if not self._parsed:
            if not self._implicit_parse:
                raise UnparsedFlagAccessError(
                    f"Trying to access flag --{name} before flags were parsed: call FLAGS(argv) or tg.app.run first")
            try:
                self(sys.argv)
            except Error as exc:
                exc.args = (f"{exc} (while parsing sys.argv {sys.argv!r}, because FLAGS.{name} was read before "
                            "any parse, as TF1 does; parse first with FLAGS([program_name, ...]) or tg.app.run)",)
                raise
        return flags[name].value

    def __setattr__(self, name, value):
        if name not in self._flags:
            raise AttributeError(f"no flag named {name!r} is defined, so FLAGS.{name} cannot be set")
        flag = self._flags[name]
        flag.value, flag.using_default_value = value, False
        self._validate([v for v in self._validators if flag.name in v[0]])

    def __delattr__(self, name):
        flag = self._flags.pop(name, None)
        if flag is None:
            raise AttributeError(f"no flag named {name!r} is defined")
        for key in [key for key, other in self._flags.items() if other is flag]:
            del self._flags[key]
        self._validators[:] = [v for v in self._validators if flag.name not in v[0]]

    def __contains__(self, name):
        return name in self._flags

    def __getitem__(self, name):
        return self._flags[name]

    def __iter__(self):
        return iter(list(self._flags))

    def __len__(self):
        return len(self._flags)

    def is_parsed(self):
        return self._parsed

    def mark_as_parsed(self):
        self.__dict__["_parsed"] = True

    def unparse_flags(self):
        """Every flag back to its default and the command line marked unparsed."""
        for flag in set(self._flags.values()):
            flag.unparse()
        self.__dict__["_parsed"] = False

    def flag_values_dict(self):
        return {flag.name: flag.value for flag in self._unique()}

    def get_flag_value(self, name, default):
        return self._flags[name].value if name in self._flags else default

    def set_default(self, name, value):
        flag = self._flags[name]
        flag.default = None if value is None else flag._converted(value)
        if flag.using_default_value:
            flag.unparse()

    def flags_into_string(self):
        return "".join(f"--{f.name}={f.value}\n" for f in self._unique() if f.value is not None)

    def get_help(self, modules=None):
        """The help text of every flag (or of those defined in `modules`), grouped by defining module."""
        by_module = {}
        for flag in self._unique():
            if modules is None or flag.module[0] in modules:
                by_module.setdefault(flag.module[0], []).append(flag.describe())
        return "\n".join(f"\n{module}:\n" + "\n".join(lines) for module, lines in sorted(by_module.items()))

    def main_module_help(self):
        return self.get_help(["__main__"]) or self.get_help()

    def __str__(self):
        return self.get_help()

    def add_validator(self, names, checker, message):
        """checker(value) (one name) or checker({name: value}) (several) must be true after every parse."""
        missing = [name for name in names if name not in self._flags]
        if missing:
            raise KeyError(f"cannot validate flags {missing!r}: they are not defined (define them first)")
        self._validators.append((list(names), checker, message))

    def validate_all_flags(self):
        self._validate(self._validators)

    def _validate(self, validators):
        for names, checker, message in validators:
            values = {name: self._flags[name].value for name in names}
            if not checker(values[names[0]] if len(names) == 1 else values):
                raise IllegalFlagValueError(
                    ", ".join(f"flag --{n}={v!r}" for n, v in values.items()) + f": {message}")

    def _unique(self):
        return sorted({id(f): f for f in self._flags.values()}.values(), key=lambda f: f.name)


def _expand_flagfiles(args):
    """Replace each --flagfile=FILE by the flags in FILE, one per line ('#' and '//' lines are comments)."""
    expanded = []
    args = iter(args)
    for arg in args:
        if arg == "--":
            return expanded + [arg] + list(args)
        name, has_value, path = arg.lstrip("-").partition("=")
        if name != "flagfile" or not arg.startswith("-"):
            expanded.append(arg)
            continue
        path = path if has_value else next(args, "")
        try:
            with open(path) as lines:
                found = [line.strip() for line in lines]
        except OSError as exc:
            raise Error(f"--flagfile={path!r} cannot be read: {exc.strerror}") from None
        expanded += _expand_flagfiles([line for line in found if line and not line.startswith(("#", "//"))])
    return expanded
