"""tf.test.StubOutForTesting: replace attributes of modules, classes or objects for a test and put them back."""
import inspect

_ABSENT = object()


class StubOutForTesting:
    """stubs.Set(os.path, "exists", lambda path: True) ... stubs.CleanUp() (or use it as a context manager)."""

    def __init__(self):
        self.cache, self.stubs = [], []  # Set's and SmartSet's undo records, as TF names them

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.CleanUp()

    def __del__(self):
        self.CleanUp()

    def CleanUp(self):  # noqa: N802  (TF's CamelCase names)
        """Undo every SmartSet and Set."""
        self.SmartUnsetAll()
        self.UnsetAll()

    def Set(self, parent, child_name, new_child):  # noqa: N802
        """parent.child_name = new_child, on `parent` itself (a module, class or instance)."""
        self.cache.append(_replace(parent, child_name, new_child))

    def SmartSet(self, obj, attr_name, new_attr):  # noqa: N802
        """obj.attr_name = new_attr, on obj's class when obj is an instance that only inherits the attribute (so
        every instance sees it); AttributeError when obj has no such attribute."""
        if not hasattr(obj, attr_name):
            raise AttributeError(f"Attribute not found: {type(obj).__name__} has no {attr_name!r} to stub out")
        owner = obj
        if not (inspect.ismodule(obj) or inspect.isclass(obj) or attr_name in getattr(obj, "__dict__", {})):
            owner = type(obj)
        self.stubs.append(_replace(owner, attr_name, new_attr))

    def SmartUnsetAll(self):  # noqa: N802
        """Undo every SmartSet, latest first."""
        _restore(self.stubs)

    def UnsetAll(self):  # noqa: N802
        """Undo every Set, latest first."""
        _restore(self.cache)


def _replace(owner, name, value):
    # the raw entry (a staticmethod, a classmethod) comes back as it was, not as the function getattr returns
    old = vars(owner).get(name, _ABSENT) if hasattr(owner, "__dict__") else getattr(owner, name)
    setattr(owner, name, value)
    return owner, name, old


def _restore(records):
    for owner, name, old in reversed(records):
        if old is _ABSENT:
            delattr(owner, name)
        else:
            setattr(owner, name, old)
    records.clear()
