"""The one Message base: construction and type checks as protobuf's Python messages, the proto3 wire format
(bytes written out by hand from the encoding rules), the text format, equality and copies."""
import numpy as np
import pytest

from trainer.platform.protobuf import Field, Message


class Inner(Message):
    FIELDS = {"size": Field(1, "int64"), "name": Field(2, "string")}


class Outer(Message):
    RED, BLUE = 0, 1
    FIELDS = {"count": Field(1, "int32"), "ratio": Field(2, "float"), "tags": Field(3, "string", repeated=True),
              "dims": Field(4, "int64", repeated=True), "inner": Field(5, "message", Inner),
              "items": Field(6, "message", Inner, repeated=True), "sizes": Field(7, "map", "int32", key="string"),
              "color": Field(8, "enum", names={0: "RED", 1: "BLUE"}), "raw": Field(9, "bytes", oneof="value"),
              "text": Field(10, "string", oneof="value"), "kept": Field(11, "any"), "on": Field(12, "bool")}


def test_wire_format_field_by_field():
    assert Outer().SerializeToString() == b""
    assert Outer(count=-1).SerializeToString() == b"\x08" + b"\xff" * 9 + b"\x01"  # ten bytes, as protobuf
    assert Outer(ratio=0.5).SerializeToString() == b"\x15\x00\x00\x00\x3f"
    assert Outer(tags=["a", "bc"]).SerializeToString() == b"\x1a\x01a\x1a\x02bc"
    assert Outer(dims=[1, 300]).SerializeToString() == b"\x22\x03\x01\xac\x02"  # packed
    assert Outer(inner=Inner(size=2)).SerializeToString() == b"\x2a\x02\x08\x02"
    assert Outer(sizes={"b": 2, "a": 1}).SerializeToString() == \
        b"\x3a\x05\x0a\x01a\x10\x01" + b"\x3a\x05\x0a\x01b\x10\x02"  # map entries: key 1, value 2
    assert Outer(raw=b"").SerializeToString() == b"\x4a\x00"  # a oneof member is written even at its default
    assert Outer(kept=object()).SerializeToString() == b""


def test_bytes_read_back_and_unknown_fields_are_skipped():
    message = Outer(count=7, ratio=0.1, tags=["x"], dims=[3, -4], inner={"name": "in"}, items=[Inner(size=1)],
                    sizes={"k": 5}, color=Outer.BLUE, text="t", on=True)
    data = message.SerializeToString()
    assert Outer.FromString(data) == message
    assert Outer.FromString(b"\xf8\x01\x05" + data) == message  # field 31, a varint nobody declared
    assert Outer.FromString(data).ratio == pytest.approx(0.1) and Outer.FromString(data).ratio != 0.1  # float32


def test_construction_and_assignment_fail_as_protobuf_does():
    with pytest.raises(ValueError, match="Outer has no 'cont' field; its fields are"):
        Outer(cont=1)
    with pytest.raises(AttributeError, match="no field 'cont' in protocol message Outer"):
        Outer().cont = 1
    with pytest.raises(TypeError, match=r"'3' has type str, but Outer.count takes a int32"):
        Outer(count="3")
    with pytest.raises(TypeError, match=r"1.5 has type float, but Outer.dims takes a int64"):
        Outer().dims.append(1.5)
    with pytest.raises(TypeError, match="Outer.raw takes a bytes.*encode it first"):
        Outer(raw="text")
    for composite in ("inner", "items", "sizes"):
        with pytest.raises(AttributeError, match=f"composite field '{composite}' of Outer"):
            setattr(Outer(), composite, None)


def test_nested_messages_oneofs_and_presence():
    message = Outer()
    assert message.inner.size == 0 and not message.HasField("inner")  # reading does not set it
    message.inner.size = 3
    assert message.HasField("inner") and message.ListFields()[0][0] == "inner"
    message.items.add(name="a")
    assert message.items[0].name == "a"
    message.raw = b"x"
    message.text = "y"
    assert message.WhichOneof("value") == "text" and message.raw == b""
    assert not Outer(count=0).HasField("count") and Outer(count=0) == Outer()


class Numbers(Message):
    FIELDS = {"doubles": Field(1, "double", repeated=True), "floats": Field(2, "float", repeated=True),
              "ints": Field(3, "int64", repeated=True), "flags": Field(4, "bool", repeated=True)}


def test_numpy_arrays_fill_repeated_fields_as_their_items_do():
    arrays = {"doubles": np.array([0.1, -2.5, 1e300]), "floats": np.array([0.1, 3.0], np.float32),
              "ints": np.array([-3, 2 ** 40], np.int64), "flags": np.array([True, False])}
    from_arrays = Numbers(**arrays)
    from_items = Numbers(**{name: list(values) for name, values in arrays.items()})
    assert from_arrays == from_items and from_arrays.SerializeToString() == from_items.SerializeToString()
    assert [type(from_arrays.ints[0]), type(from_arrays.floats[0])] == [int, float]
    assert Numbers(floats=np.array([0.1])).floats[0] == np.float32(0.1)  # a float64 array rounds as its items do
    with pytest.raises(TypeError, match="Numbers.ints takes a int64"):
        Numbers(ints=np.array([1.5]))
    with pytest.raises(TypeError, match="Numbers.doubles takes a double"):
        Numbers(doubles=np.zeros((2, 2)))


def test_copies_are_independent_and_equality_is_by_value():
    a = Outer(inner=Inner(size=1), tags=["t"], sizes={"k": 1})
    b = Outer()
    b.CopyFrom(a)
    b.inner.size, b.sizes["k"] = 2, 2
    b.tags.append("u")
    assert (a.inner.size, a.sizes, list(a.tags)) == (1, {"k": 1}, ["t"]) and a != b
    b.Clear()
    assert b == Outer() and b.ListFields() == []
    given = Inner(size=5)
    held = Outer(inner=given)
    given.size = 6
    assert held.inner.size == 5  # the constructor copies a message, as protobuf does


def test_text_format():
    message = Outer(count=2, ratio=0.1, tags=['q"\n'], inner=Inner(name="é"), sizes={"b": 2, "a": 1},
                    color=Outer.BLUE, on=True)
    assert str(message) == ('count: 2\nratio: 0.1\ntags: "q\\"\\n"\ninner {\n  name: "\\303\\251"\n}\n'
                            'sizes {\n  key: "a"\n  value: 1\n}\nsizes {\n  key: "b"\n  value: 2\n}\n'
                            'color: BLUE\non: true\n')
    assert repr(message) == str(message)
