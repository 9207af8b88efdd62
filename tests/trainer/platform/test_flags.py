"""tg.flags against absl's documented parsing rules (TF1 re-exports absl.flags); expected values by hand."""
import sys

import pytest

import trainer as tg
from trainer.platform import flags


@pytest.fixture
def fv():
    """A private registry, so these tests never touch the program-wide tg.flags.FLAGS."""
    return flags.FlagValues()


def define_common(fv):
    flags.DEFINE_string("name", "anon", "who", flag_values=fv)
    flags.DEFINE_integer("steps", 10, "how many", lower_bound=0, flag_values=fv)
    flags.DEFINE_float("lr", 0.1, "rate", flag_values=fv)
    flags.DEFINE_boolean("fast", False, "go fast", flag_values=fv)
    flags.DEFINE_bool("safe", True, "be safe", flag_values=fv)


def test_every_spelling_of_a_value(fv):
    define_common(fv)
    rest = fv(["prog", "--name=ann", "pos1", "--steps", "7", "-lr=0.5", "--fast", "--nosafe", "pos2"])
    assert rest == ["prog", "pos1", "pos2"]
    assert fv.flag_values_dict() == {"name": "ann", "steps": 7, "lr": 0.5, "fast": True, "safe": False}
    assert fv.is_parsed()


@pytest.mark.parametrize("text, expected", [("true", True), ("false", False), ("1", True), ("0", False),
                                            ("T", True), ("f", False)])
def test_boolean_values(fv, text, expected):
    flags.DEFINE_boolean("b", not expected, "", flag_values=fv)
    fv(["prog", f"--b={text}"])
    assert fv.b is expected


def test_double_dash_ends_flags(fv):
    define_common(fv)
    assert fv(["prog", "--steps=3", "--", "--steps=4", "x"]) == ["prog", "--steps=4", "x"]
    assert fv.steps == 3


def test_integer_forms_and_bounds(fv):
    flags.DEFINE_integer("n", 0, "", lower_bound=-2, upper_bound=300, flag_values=fv)
    fv(["prog", "--n=0x1f"])
    assert fv.n == 31
    with pytest.raises(flags.IllegalFlagValueError, match=r"--n='400'.*400 is not an integer in the range \[-2, 300\]"):
        fv(["prog", "--n=400"])


def test_integer_parse_error_names_flag_and_value(fv):
    define_common(fv)
    with pytest.raises(flags.IllegalFlagValueError, match=r"--steps='ten'"):
        fv(["prog", "--steps=ten"])
    with pytest.raises(flags.IllegalFlagValueError, match="non-negative"):
        fv(["prog", "--steps=-1"])


def test_bad_default_is_refused_at_definition(fv):
    with pytest.raises(flags.IllegalFlagValueError, match=r"--k='x'"):
        flags.DEFINE_integer("k", "x", "", flag_values=fv)


def test_enum_list_and_multi(fv):
    flags.DEFINE_enum("opt", "sgd", ["sgd", "adam"], "", flag_values=fv)
    flags.DEFINE_list("layers", "a,b", "", flag_values=fv)
    flags.DEFINE_spaceseplist("words", "", "", flag_values=fv)
    flags.DEFINE_multi_integer("k", [1, 2], "", flag_values=fv)
    flags.DEFINE_multi_string("tag", None, "", flag_values=fv)
    fv(["prog"])
    assert (fv.opt, fv.layers, fv.words, fv.k, fv.tag) == ("sgd", ["a", "b"], [], [1, 2], None)
    fv(["prog", "--opt=adam", "--layers", 'x,"y,z"', "--words", " p  q ", "--k=5", "--k=6", "--tag", "t"])
    assert (fv.opt, fv.layers, fv.words, fv.k, fv.tag) == ("adam", ["x", "y,z"], ["p", "q"], [5, 6], ["t"])
    with pytest.raises(flags.IllegalFlagValueError, match=r"--opt='rms'.*<sgd\|adam>"):
        fv(["prog", "--opt=rms"])


def test_unknown_flag_is_named_with_a_suggestion(fv):
    define_common(fv)
    with pytest.raises(flags.UnrecognizedFlagError, match="Unknown command line flag 'stepz'.*steps"):
        fv(["prog", "--stepz=3"])
    assert fv(["prog", "--stepz=3", "--steps=2"], known_only=True) == ["prog", "--stepz=3"]
    assert fv(["prog", "--undefok=stepz,other", "--stepz=3", "--noother"]) == ["prog"]


def test_missing_value_and_negated_value(fv):
    define_common(fv)
    with pytest.raises(flags.Error, match="--steps"):
        fv(["prog", "--steps"])
    with pytest.raises(flags.Error, match="--nofast=1"):
        fv(["prog", "--nofast=1"])


def test_duplicate_definition_names_the_flag_until_deleted(fv):
    define_common(fv)
    with pytest.raises(flags.DuplicateFlagError, match="'steps' is defined twice"):
        flags.DEFINE_integer("steps", 1, "again", flag_values=fv)
    delattr(fv, "steps")
    flags.DEFINE_integer("steps", 1, "again", flag_values=fv)
    fv(["prog"])
    assert fv.steps == 1


def test_required_validator_and_mutual_exclusion(fv):
    flags.DEFINE_string("data", None, "", flag_values=fv, required=True)
    flags.DEFINE_integer("a", None, "", flag_values=fv)
    flags.DEFINE_integer("b", None, "", flag_values=fv)
    flags.mark_flags_as_mutual_exclusive(["a", "b"], flag_values=fv)
    with pytest.raises(flags.IllegalFlagValueError, match="--data must have a value other than None"):
        fv(["prog"])
    with pytest.raises(flags.IllegalFlagValueError, match="at most one"):
        fv(["prog", "--data=d", "--a=1", "--b=2"])
    fv.unparse_flags()  # values persist across parses, as in absl
    fv(["prog", "--data=d", "--a=1"])

    @flags.validator("a", message="a must be odd", flag_values=fv)
    def _odd(value):
        return value is None or value % 2 == 1
    with pytest.raises(flags.IllegalFlagValueError, match="a must be odd"):
        fv.a = 4
    with pytest.raises(KeyError, match="nope"):
        flags.mark_flag_as_required("nope", flag_values=fv)


def test_state_methods(fv):
    define_common(fv)
    with pytest.raises(flags.UnparsedFlagAccessError, match="--steps before flags were parsed"):
        fv.steps
    fv(["prog", "--steps=3"])
    fv.name = "set"
    assert (fv.steps, fv.name, fv["steps"].present, fv["steps"].default) == (3, "set", 1, 10)
    assert "steps" in fv and fv.get_flag_value("nope", 9) == 9
    fv.unparse_flags()
    assert not fv.is_parsed() and fv["steps"].value == 10
    fv.mark_as_parsed()
    assert fv.steps == 10
    with pytest.raises(AttributeError, match="'nope'"):
        fv.nope


def test_tf1_flags_parse_sys_argv_on_first_read(monkeypatch):
    fv = flags.FlagValues(implicit_parse=True)
    flags.DEFINE_integer("batch", 1, "", flag_values=fv)
    monkeypatch.setattr(sys, "argv", ["kernel.py", "-f", "/run/kernel.json"])  # what Jupyter passes
    with pytest.raises(flags.UnrecognizedFlagError, match="'f'.*FLAGS.batch was read before any parse"):
        fv.batch
    monkeypatch.setattr(sys, "argv", ["prog", "--batch=64"])
    assert fv.batch == 64


def test_old_tf_keyword_names(fv):
    flags.DEFINE_string(flag_name="data_dir", default_value="/tmp", docstring="where", flag_values=fv)
    fv(["prog"])
    assert fv.data_dir == "/tmp" and fv["data_dir"].help == "where"


def test_flagfile(fv, tmp_path):
    define_common(fv)
    path = tmp_path / "flags.txt"
    path.write_text("# comment\n--steps=5\n\n--name=file\n")
    assert fv(["prog", f"--flagfile={path}", "--name=cli"]) == ["prog"]
    assert (fv.steps, fv.name) == (5, "cli")


def test_exported_where_tf1_has_them():
    assert tg.flags is tg.app.flags
    assert isinstance(tg.flags.FLAGS, flags.FlagValues)
    assert issubclass(flags.UnrecognizedFlagError, flags.Error)


def test_a_second_import_of_the_defining_module_keeps_the_first_flag(fv):
    source = "from trainer import flags\nflags.DEFINE_integer('again', 1, 'h', flag_values=fv)\n"
    first, second = ({"__name__": "some_module", "fv": fv} for _ in range(2))
    exec(source, first)
    fv(["prog", "--again=5"])
    exec(source, second)  # a fresh module namespace, same name: a re-import
    assert fv.again == 5
    namespace = {"__name__": "notebook", "fv": flags.FlagValues()}
    exec(source, namespace)
    with pytest.raises(flags.DuplicateFlagError, match="'again' is defined twice: first in notebook"):
        exec(source, namespace)  # the same cell run twice
