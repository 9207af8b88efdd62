"""tf.test.StubOutForTesting: stubbed attributes of modules, classes and objects come back as they were."""
import os

import pytest

import trainer as tg


class Base:
    @staticmethod
    def kind():
        return "base"

    def greet(self):
        return "hello"


class Child(Base):
    pass


def test_set_replaces_and_cleanup_restores_in_any_order():
    exists = os.path.exists
    with tg.test.StubOutForTesting() as stubs:
        stubs.Set(os.path, "exists", lambda path: "stubbed")
        stubs.Set(Base, "kind", staticmethod(lambda: "first"))
        stubs.Set(Base, "kind", staticmethod(lambda: "second"))
        assert os.path.exists("/nowhere") == "stubbed" and Base.kind() == "second"
    assert os.path.exists is exists and Base.kind() == "base" and Base().kind() == "base"


def test_smart_set_stubs_the_class_of_an_instance_that_inherits_the_attribute():
    stubs = tg.test.StubOutForTesting()
    child, other = Child(), Child()
    stubs.SmartSet(child, "greet", lambda self: "stubbed")
    assert other.greet() == "stubbed" and Base().greet() == "hello"
    own = Base()
    own.name = "mine"
    stubs.SmartSet(own, "name", "stubbed")
    assert own.name == "stubbed" and not hasattr(Base, "name")
    stubs.CleanUp()
    assert other.greet() == "hello" and own.name == "mine" and "greet" not in vars(Child)
    with pytest.raises(AttributeError, match="no 'missing' to stub out"):
        stubs.SmartSet(child, "missing", 1)
