"""DESIGN.md's structural rules, checked by reading tripod's source (no module is imported).

Each failure names the file, the line and the rule it breaks. The rules: the package layer order
(imports lean one way), the frameworks only inside their backend's folder, no function-local
imports, no module over `MAX_LINES` nor class over `MAX_METHODS` methods, the standalone runners importing nothing from tripod, and
Keras-length constructors forwarding their options by keyword.
"""

import ast
import functools
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "tripod"
FRAMEWORKS = ("torch", "jax", "jaxlib", "tensorflow")
MAX_LINES = 600
#: The most methods (functions defined in the class body, properties included) a class may have.
MAX_METHODS = 40
#: The most arguments a `super().__init__(...)` call may pass by position: past that, reordering
#: one parameter of a base class would misconfigure its subclasses silently.
MAX_POSITIONAL_SUPER_ARGS = 3

#: DESIGN.md §2: "api -> training -> layers -> saving -> backends", with the packages its section
#: "The parts that come next" places beside that chain. A module may import its own tier or a
#: lower one (a larger number). Each entry: top-level package -> (tier, why it sits there).
TIERS = {
    "": (
        0,
        (
            "tripod/__init__.py assembles the public package from every part; beside it, each "
            "public namespace without sub-namespaces is a thin module of re-exports, "
            "tripod/<name>.py (callbacks, losses, config, random, ...)"
        ),
    ),
    "api": (0, "the namespaces built rather than re-exported (ops, random), and the stand-in"),
    **{
        namespace: (
            0,
            (
                f"the public tripod.{namespace} namespace and its sub-namespaces: thin modules "
                "of re-exports, at the top of the chain beside api"
            ),
        )
        for namespace in ("datasets", "legacy", "ops", "optimizers", "utils")
    },
    "testing": (
        0,
        (
            "a public tool beside api (tripod.testing): it builds, saves and runs whole models on "
            "every backend, so it needs training and the top-level package"
        ),
    ),
    "preprocessing": (
        0,
        (
            "Keras's legacy tripod.preprocessing namespace beside api: names from data and "
            "training, assembled"
        ),
    ),
    "applications": (
        1,
        (
            "Keras's pretrained architectures, exposed as tripod.applications: whole functional "
            "models above training, fetching their weights through data's get_file"
        ),
    ),
    "wrappers": (
        1,
        (
            "Keras's scikit-learn estimators, exposed as tripod.wrappers: they build, clone and "
            "fit models, above training"
        ),
    ),
    "data": (
        1,
        (
            "datasets and get_file, exposed through tripod.utils / tripod.datasets (api): above "
            "training, whose PyDataset and progress bar it reuses"
        ),
    ),
    "training": (2, "the chain's second link"),
    "export": (
        3,
        (
            "sits beside the top of training: Model.export calls it, and it sees models only "
            "through their methods; each converter lives in backends/<name>/export.py"
        ),
    ),
    "layers": (4, "the chain's third link"),
    "distribution": (
        5,
        (
            "the backend-neutral meshes and layouts: training imports it and layers meet it where "
            "variables are created; each engine lives in backends/<name>/distribution.py"
        ),
    ),
    "saving": (6, "the chain's fourth link: it knows objects only through a small protocol"),
    "backends": (7, "the bottom: nothing in backends/ imports the rest of tripod"),
}

#: Files run in a process without tripod (as a deployment runs an artifact): no tripod imports.
STANDALONE = (
    "export/serve_artifact.py",
    "backends/torch/program_runner.py",
    "backends/tensorflow/saved_model_runner.py",
)

#: The function-local imports DESIGN.md allows besides `backends.common.optional.require` (the
#: lazy optional-dependency helper, which imports by name and so needs no entry here):
#: (file, imported module) -> why it cannot go through `require` or to the top of the file.
LAZY_IMPORTS = {
    ("api/stand_in.py", "tripod"): (
        "tripod/__init__.py imports the stand-in first, to note whether Keras came before "
        "tripod (a framework may import it after): its finder reaches tripod once it is whole"
    ),
    ("api/stand_in.py", "tripod.api"): (
        "its private-path table (keras_src) imports the backend, hence the framework (which may "
        "import Keras): only once a `keras.src` path is asked for"
    ),
    ("export/serve_artifact.py", "onnxruntime"): (
        "a standalone runner (it imports nothing from tripod, so not `require` either): "
        "onnxruntime is imported only when an ONNX artifact is served"
    ),
}


@functools.cache
def _modules():
    """(path relative to the package, parsed tree, source) of every module in tripod/, parsed
    once for all the rules (the checks only read the trees)."""
    return tuple(_parsed(path) for path in sorted(PACKAGE.rglob("*.py")))


def _parsed(path):
    """(path relative to the package, parsed tree, source) of the module at `path`."""
    source = path.read_text()
    return path.relative_to(PACKAGE).as_posix(), ast.parse(source, str(path)), source


def _imports(tree):
    """(line, absolute module name) for each module an import statement in `tree` names;
    `from tripod import x` names `tripod.x`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "tripod":
                for alias in node.names:
                    yield node.lineno, f"tripod.{alias.name}"
            else:
                yield node.lineno, node.module


def _package_of(relative):
    """The top-level package of a module path relative to tripod/ ("" for the package root)."""
    parts = relative.split("/")
    return parts[0] if len(parts) > 1 else ""


def _tripod_package(module):
    """The top-level tripod package an absolute module name lies in, or None outside tripod."""
    parts = module.split(".")
    if parts[0] != "tripod":
        return None
    if len(parts) == 1 or (PACKAGE / f"{parts[1]}.py").is_file():
        return ""  # a top-level module (tripod/callbacks.py) is the root's, as _package_of says
    return parts[1]


def _layer_order_breaches(relative, tree):
    home = _package_of(relative)
    tier, _ = TIERS[home]
    for line, module in _imports(tree):
        target = _tripod_package(module)
        if target is None or target == home:
            continue
        if target not in TIERS:
            yield f"tripod/{relative}:{line}: layer order: {module} is in no tier of TIERS"
        elif TIERS[target][0] < tier:
            yield (
                f"tripod/{relative}:{line}: layer order: {home or 'tripod'} (tier {tier}) "
                f"imports {module} (tier {TIERS[target][0]}, above it)"
            )


def test_every_package_has_a_tier():
    packages = {_package_of(relative) for relative, _, _ in _modules()}
    assert packages <= set(TIERS), f"packages without a tier in TIERS: {packages - set(TIERS)}"


def test_imports_follow_the_layer_order():
    """A module imports its own package or the ones below it: api -> training -> layers ->
    saving -> backends, with data, export and distribution where TIERS places them."""
    breaches = [
        b for relative, tree, _ in _modules() for b in _layer_order_breaches(relative, tree)
    ]
    assert not breaches, "\n".join(breaches)


def _framework_breaches(relative, tree):
    parts = relative.split("/")
    home = parts[1] if parts[0] == "backends" and len(parts) > 2 else None
    for line, module in _imports(tree):
        root = module.split(".")[0]
        owner = "jax" if root == "jaxlib" else root
        if root in FRAMEWORKS and owner != home:
            yield (
                f"tripod/{relative}:{line}: frameworks only in their backend: imports {module} "
                f"outside tripod/backends/{owner}/"
            )


def test_frameworks_are_imported_only_in_their_backend():
    breaches = [b for relative, tree, _ in _modules() for b in _framework_breaches(relative, tree)]
    assert not breaches, "\n".join(breaches)


def _function_local_imports(tree):
    """(line, module, enclosing function, statement) of every import inside a function body."""
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            name = getattr(function, "name", "<lambda>")
            for node in ast.walk(function):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        yield node.lineno, alias.name, name, ast.unparse(node)
                elif isinstance(node, ast.ImportFrom):
                    module = "." * node.level + (node.module or "")
                    yield node.lineno, module, name, ast.unparse(node)


def test_no_function_local_imports():
    """Imports sit at the top of their module: an import inside a function hides a dependency
    or papers over a cycle. Optional libraries go through `backends.common.optional.require`."""
    breaches = [
        f"tripod/{relative}:{line}: no function-local imports: {function}() runs `{statement}`"
        for relative, tree, _ in _modules()
        for line, module, function, statement in _function_local_imports(tree)
        if (relative, module) not in LAZY_IMPORTS
    ]
    assert not breaches, "\n".join(breaches)


@pytest.mark.parametrize("entry", sorted(LAZY_IMPORTS), ids=lambda entry: "/".join(entry))
def test_every_allowed_lazy_import_still_exists(entry):
    relative, module = entry
    tree = ast.parse((PACKAGE / relative).read_text())
    assert module in {found for _, found, _, _ in _function_local_imports(tree)}, (
        f"tripod/{relative}: LAZY_IMPORTS allows a function-local import of {module}, which the "
        "file no longer has: remove the entry"
    )


def test_no_module_is_longer_than_the_limit():
    """DESIGN.md: small files named for what they hold; a module past MAX_LINES is split by
    responsibility."""
    breaches = [
        f"tripod/{relative}:{MAX_LINES + 1}: at most {MAX_LINES} lines a module: it has "
        f"{len(source.splitlines())}"
        for relative, _, source in _modules()
        if len(source.splitlines()) > MAX_LINES
    ]
    assert not breaches, "\n".join(breaches)


def test_one_formatting_style():
    """One style: ruff formats every file of tripod and its tests, none opts out of it (a
    skip marker hides code the formatter would split; split it instead)."""
    marker = "fmt: " + "skip"  # spelled apart, so that this file does not hold the marker
    roots = (PACKAGE, PACKAGE.parent / "tests")
    breaches = [
        f"{path.relative_to(PACKAGE.parent)}:{number}: {marker}"
        for root in roots
        for path in sorted(root.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if marker in line
    ]
    assert not breaches, "\n".join(breaches)


def _crowded_classes(tree):
    """(line, name, count) for each class defining more than MAX_METHODS methods in its body."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            count = sum(
                isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) for item in node.body
            )
            if count > MAX_METHODS:
                yield node.lineno, node.name, count


def test_no_class_has_more_methods_than_the_limit():
    """A class past MAX_METHODS holds several responsibilities: split it (a mixin named for
    each, as `Trainer` is `Compiling` + `StepBuilding` + its loops)."""
    breaches = [
        f"tripod/{relative}:{line}: class {name} has {count} methods (at most {MAX_METHODS})"
        for relative, tree, _ in _modules()
        for line, name, count in _crowded_classes(tree)
    ]
    assert not breaches, "\n".join(breaches)


def _positional_super_inits(tree):
    """(line, count) for each `super().__init__(...)` call passing more than
    MAX_POSITIONAL_SUPER_ARGS arguments by position."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner = node.func.value
        is_super = isinstance(owner, ast.Call) and getattr(owner.func, "id", None) == "super"
        if is_super and node.func.attr == "__init__" and len(node.args) > MAX_POSITIONAL_SUPER_ARGS:
            yield node.lineno, len(node.args)


def test_base_constructors_take_their_options_by_keyword():
    breaches = [
        f"tripod/{relative}:{line}: super().__init__ passes {count} arguments by position "
        f"(at most {MAX_POSITIONAL_SUPER_ARGS}; pass the rest by keyword)"
        for relative, tree, _ in _modules()
        for line, count in _positional_super_inits(tree)
    ]
    assert not breaches, "\n".join(breaches)


@pytest.mark.parametrize("relative", STANDALONE)
def test_standalone_scripts_import_nothing_from_tripod(relative):
    tree = ast.parse((PACKAGE / relative).read_text())
    breaches = [
        f"tripod/{relative}:{line}: standalone runner: imports {module}"
        for line, module in _imports(tree)
        if _tripod_package(module) is not None
    ]
    assert not breaches, "\n".join(breaches)


# -- the checks themselves catch what they should --------------------------------------------
def test_the_checks_catch_a_breach_of_each_rule():
    lower = ast.parse("from tripod.training import model\nimport tripod\n")
    assert list(_layer_order_breaches("layers/core/dense.py", lower)) == [
        (
            "tripod/layers/core/dense.py:1: layer order: layers (tier 4) imports tripod.training "
            "(tier 2, above it)"
        ),
        (
            "tripod/layers/core/dense.py:2: layer order: layers (tier 4) imports tripod (tier 0, "
            "above it)"
        ),
    ]
    higher = ast.parse("from tripod.layers import layer\nfrom tripod.training import losses\n")
    assert not list(_layer_order_breaches("training/model.py", higher))
    framework = ast.parse("import numpy\nfrom jax import numpy as jnp\n")
    assert list(_framework_breaches("backends/torch/nn.py", framework)) == [
        (
            "tripod/backends/torch/nn.py:2: frameworks only in their backend: imports jax outside "
            "tripod/backends/jax/"
        )
    ]
    assert not list(_framework_breaches("backends/jax/nn.py", framework))
    local = ast.parse("import os\n\ndef f():\n    from tripod import ops\n    return ops\n")
    assert list(_function_local_imports(local)) == [(4, "tripod", "f", "from tripod import ops")]
    positional = ast.parse(
        "class A(B):\n    def __init__(self):\n        super().__init__(1, 2, 3, 4)\n"
    )
    assert list(_positional_super_inits(positional)) == [(3, 4)]
    assert not list(_positional_super_inits(ast.parse("super().__init__(1, 2, 3, name=4)\n")))
    crowded = ast.parse("class A:\n" + "".join(f"    def m{i}(self): pass\n" for i in range(41)))
    assert list(_crowded_classes(crowded)) == [(1, "A", 41)]
    assert not list(_crowded_classes(ast.parse("class A:\n    def m(self): pass\n")))
