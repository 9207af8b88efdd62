"""The seam between the communicator base and its backends and helpers (communicator.py's docstring):
backends override the named points and build on public hooks; nobody outside communicator.py touches the
base's underscored internals, and helpers touch no other object's."""
import ast
import importlib
import pathlib

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
from allreduce import communicator
from allreduce.communicator import Communicator

PACKAGE = pathlib.Path(allreduce.__file__).parent
MODULES = sorted(p for p in PACKAGE.glob("*.py") if p.name != "communicator.py")


def base_private_names():
    """Underscored methods and instance attributes the base class defines (dunders excluded)."""
    tree = ast.parse(pathlib.Path(communicator.__file__).read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Communicator")
    names = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    names |= {n.attr for n in ast.walk(cls) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
              and isinstance(n.value, ast.Name) and n.value.id == "self"}
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def private_accesses(path):
    """(class name or None, object expression, attribute, line) for every `x._name` in the module."""
    tree = ast.parse(path.read_text())
    found = []

    def visit(node, cls):
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.ClassDef) else cls
            if (isinstance(child, ast.Attribute) and child.attr.startswith("_")
                    and not child.attr.startswith("__")):
                found.append((cls, ast.unparse(child.value), child.attr, child.lineno))
            visit(child, inner)

    visit(tree, None)
    return found


def test_the_check_sees_the_base_internals():
    # if this drifts, the two tests below would pass vacuously
    assert {"_signature", "_check_usable", "_plans", "_current"} <= base_private_names()
    assert "wait" not in base_private_names()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_backends_use_no_underscored_name_of_the_base(path):
    module = importlib.import_module(f"allreduce.{path.stem}")
    base = base_private_names()
    bad = []
    for cls, obj, attr, line in private_accesses(path):
        backend = cls is not None and isinstance(getattr(module, cls, None), type) \
            and issubclass(getattr(module, cls), Communicator)
        if attr in base and (backend or obj != "self"):
            bad.append(f"{path.name}:{line} {obj}.{attr}")
    assert not bad, (f"{bad}: use the base's public hooks (communicator.py's docstring lists them); add a hook "
                     f"there if one is missing")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_helpers_reach_into_no_other_objects_privates(path):
    imported = {alias.asname or alias.name.split(".")[0] for node in ast.walk(ast.parse(path.read_text()))
                if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}  # os._exit is fine
    bad = [f"{path.name}:{line} {obj}.{attr}" for _, obj, attr, line in private_accesses(path)
           if obj not in {"self", "cls", "super()"} | imported]
    assert not bad, f"{bad}: call a public method of that object instead"


def test_every_public_method_of_the_base_is_documented_in_the_module_docstring():
    public = [n for n, v in vars(Communicator).items() if callable(v) and not n.startswith("_")]
    assert {"allreduce_flat", "allocate_buckets", "begin", "agree", "wait", "give_up"} <= set(public)
    missing = [n for n in public if f"`{n}" not in communicator.__doc__ and n not in communicator.__doc__.split()]
    assert not missing, f"{missing} are not in communicator.py's docstring"


def test_every_registered_backend_implements_the_data_path():
    for name, backend in allreduce.BACKENDS.items():
        if isinstance(backend, type):
            overrides = {n for k in backend.__mro__[:-1] if k is not Communicator for n in vars(k)}
            assert {"allreduce_flat", "allreduce"} & overrides, name


class Minimal(Communicator):
    """A backend written from the docstring alone: the handshake, then MPI."""
    name = "minimal"

    def allreduce_flat(self, src, dst, op, signature):
        self.agree(signature)
        self.comm.Allreduce(MPI.IN_PLACE if src is dst else src, dst, op=MPI.MAX if op == "max" else MPI.SUM)


def test_a_backend_with_only_allreduce_flat_gets_every_collective():
    c = Minimal(comm=MPI.COMM_SELF)
    x = np.arange(6, dtype=np.float16).reshape(2, 3)[:, ::2]  # non-contiguous, reduced in a wider dtype
    out = c.allreduce(x, op="max")
    assert out.dtype == np.float16 and out.shape == (2, 2)
    np.testing.assert_array_equal(out, x)
    np.testing.assert_array_equal(c.broadcast(x), x)
    np.testing.assert_array_equal(c.allgather(x), x[None])
    assert [a.tolist() for a in c.allgatherv_list(np.arange(3))] == [[0, 1, 2]]
    c.barrier()


def test_a_backend_without_allreduce_flat_is_named():
    class Forgetful(Communicator):
        name = "forgetful"

    with pytest.raises(NotImplementedError, match=r"^the 'forgetful' backend \(Forgetful\) does not define "
                                                  r"allreduce_flat\(src, dst, op, signature\)"):
        Forgetful(comm=MPI.COMM_SELF).allreduce(np.ones(2))


@pytest.mark.parametrize("name", ["ring", "mpi", "ps", "shm"])
def test_allgatherv_at_one_rank(name):
    c = allreduce.create_communicator(name, comm=MPI.COMM_SELF)
    x = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(c.allgatherv(x), x)
    parts = c.allgatherv_list(x[:0])
    assert len(parts) == 1 and parts[0].shape == (0, 2)
    with pytest.raises(ValueError, match="allgatherv needs an array with a first dimension, got a scalar at rank 0"):
        c.allgatherv_list(np.float32(1))
