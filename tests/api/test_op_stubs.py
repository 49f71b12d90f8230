"""The `.pyi` stubs of `tripod.ops` and `tripod.random` say what the contract says
(scripts/generate_op_stubs.py writes them)."""

import ast
import importlib.util
import inspect
import pathlib

import pytest

import tripod
from tripod.backends import contract

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "generate_op_stubs.py"


def _generator():
    """scripts/generate_op_stubs.py, loaded as a module."""
    spec = importlib.util.spec_from_file_location("generate_op_stubs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATOR = _generator()
STUBS = GENERATOR.stubs()


def test_the_stubs_on_disk_are_what_the_contract_gives():
    assert not GENERATOR.stale(STUBS), (
        "op stubs are stale: run `python scripts/generate_op_stubs.py --write`"
    )


def _stub_path(module):
    """The stub of `module`: "tripod.ops.nn" -> tripod/ops/nn.pyi, "tripod.ops" ->
    tripod/ops/__init__.pyi."""
    base = module.replace(".", "/")
    return f"{base}/__init__.pyi" if (REPO / base).is_dir() else f"{base}.pyi"


def _stated(path):
    """{function name: (signature text, docstring)} that the stub at `path` gives, with those of
    the stubs it star-imports."""
    stated = {}
    for node in ast.parse((REPO / path).read_text()).body:
        if isinstance(node, ast.FunctionDef):
            stated[node.name] = (f"({ast.unparse(node.args)})", ast.get_docstring(node))
        elif isinstance(node, ast.ImportFrom) and node.names[0].name == "*":
            stated.update(_stated(_stub_path(node.module)))
    return stated


@pytest.mark.parametrize(
    "path, namespace",
    [
        ("tripod/ops/__init__.pyi", "ops"),
        *((f"tripod/ops/{kind}.pyi", f"ops.{kind}") for kind in GENERATOR.OPS_KINDS),
        ("tripod/random.pyi", "random"),
    ],
)
def test_a_stub_states_each_public_op_with_its_runtime_signature_and_docstring(path, namespace):
    module = tripod
    for part in namespace.split("."):
        module = getattr(module, part)
    public = {
        name: fn
        for name, fn in vars(module).items()
        if inspect.isfunction(fn) and not name.startswith("_")
    }
    stated = _stated(path)
    assert set(stated) == set(public)
    wrong = [
        name
        for name, fn in public.items()
        if stated[name] != (str(inspect.signature(fn)), inspect.cleandoc(fn.__doc__))
    ]
    assert not wrong, wrong


def test_signatures_split_as_the_formatter_splits_them():
    assert GENERATOR.def_line("add", ["x1", "x2"]) == "def add(x1, x2):"
    fits_indented = ["a" * 40, "b" * 40, "c" * 8]  # 101 characters on one line, 96 indented
    assert GENERATOR.def_line("op", fits_indented) == f"def op(\n    {', '.join(fits_indented)}\n):"
    too_long = ["a" * 40, "b" * 40, "c" * 40]
    assert (
        GENERATOR.def_line("op", too_long)
        == "def op(\n" + "".join(f"    {p},\n" for p in too_long) + "):"
    )


def test_the_contract_has_no_op_the_stubs_leave_out():
    stated = {*_stated("tripod/ops/__init__.pyi"), *_stated("tripod/ops/image.pyi")}
    stated |= set(_stated("tripod/random.pyi"))
    public = {name for kind in contract.PUBLIC_KINDS for name in contract.OPS_BY_KIND[kind]}
    assert stated == public
