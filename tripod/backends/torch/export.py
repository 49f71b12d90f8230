"""The torch backend's exporters: ONNX through `torch.onnx.export(dynamo=True)` and `.pt2`
programs through `torch.export`.

Both trace one `ServingModule`: a `torch.nn.Module` whose buffers are the endpoint's variables'
tensors (registered under their paths, so they become named weights, not inlined constants) and
whose forward runs the endpoint on flat input tensors.
"""

import contextlib
import io
import re
import warnings

import torch

from tripod.backends.common.optional import require
from tripod.backends.common.quiet import quiet_loggers

FORMATS = ("onnx", "torch")

#: weights above this many bytes go to an external data file beside the ONNX file (protobuf
#: cannot hold a message of 2 GiB)
EXTERNAL_DATA_BYTES = 1 << 30
#: the loggers whose warnings `verbose=False` silences during an export
QUIET_LOGGERS = ("torch.onnx", "torch.export", "torch._export")


class ServingModule(torch.nn.Module):
    """`endpoint` (a `ServingFunction`) as a module of flat tensors. Its buffers, nested after
    the variables' paths, are the variables' tensors detached (the same storage, no copy): the
    artifact holds them as named weights rather than inlined constants, and its outputs do
    not require grad."""

    def __init__(self, endpoint):
        super().__init__()
        self._endpoint = endpoint
        scopes = {}
        self._slots = [_register(self, scopes, v) for v in endpoint.variables]
        self.eval()

    def forward(self, *flat_inputs):
        """The endpoint's flat outputs, a tuple, reading the variables through the registered
        tensors (which the tracer swaps for its own stand-ins)."""
        values = [getattr(owner, name) for owner, name in self._slots]
        return tuple(self._endpoint.stateless(values, *flat_inputs))


def _register(root, scopes, variable):
    """Register the variable's tensor, detached, in `root` after its path ("dense/kernel":
    submodule `dense`, buffer `kernel`); `scopes` maps path prefixes to the submodules made so
    far. Returns (owner module, attribute name)."""
    *prefix, leaf = [_identifier(part) for part in variable.path.split("/")]
    owner = root
    for depth in range(1, len(prefix) + 1):
        key = tuple(prefix[:depth])
        if key not in scopes:
            scopes[key] = torch.nn.Module()
            owner.add_module(_free(owner, key[-1]), scopes[key])
        owner = scopes[key]
    name = _free(owner, leaf)
    owner.register_buffer(name, variable.value.detach())
    return owner, name


def _identifier(part):
    """A path part as an attribute name torch accepts (no dots, not empty)."""
    return re.sub(r"\W", "_", part) or "_"


def _dim_name(name):
    """`name` as a Python identifier, as `torch.export.Dim` requires ("token-ids_1" ->
    "token_ids_1"); `_name_dims` gives the ONNX graph the readable name back."""
    name = _identifier(name)
    return name if name.isidentifier() else f"_{name}"


def _free(module, name):
    """`name`, or `name_1`, `name_2`, ...: the first attribute name not yet taken in `module`."""
    return _unique(name, set(module._modules) | set(module._buffers) | set(dir(module)))


def _unique(name, taken):
    """`name`, or `name_1`, `name_2`, ...: the first not in `taken`."""
    candidate, count = name, 0
    while candidate in taken:
        count += 1
        candidate = f"{name}_{count}"
    return candidate


def dynamic_shapes(specs, given=None):
    """`torch.export` dynamic shapes for `forward(*flat)`: by default one `Dim("batch")` shared
    by every unknown axis 0, one Dim per other unknown axis, named as `TensorSpec.dynamic_axes`
    says; or the user's `given` (`_per_input`)."""
    if given is not None:
        return (_per_input(specs, given),)
    dims = {}

    def dim(name):
        if name not in dims:
            dims[name] = torch.export.Dim(_dim_name(name))
        return dims[name]

    per_input = tuple(
        {axis: dim(name) for axis, name in spec.dynamic_axes().items()} or None for spec in specs
    )
    return (per_input,)


def _per_input(specs, given):
    """A user's `dynamic_shapes` as one entry per input, in order. As Keras passes them to
    `torch.export`: {axis: Dim} for a model of one input, a list or tuple of one such entry per
    input, or a dict of them by input name."""
    names = [spec.name for spec in specs]
    if isinstance(given, dict) and all(isinstance(key, int) for key in given):
        if len(specs) != 1:
            raise ValueError(
                f"dynamic_shapes={given!r} gives the axes of one input; the model has "
                f"{len(specs)} ({names}): give a list of one entry per input, or a dict by name."
            )
        return (given,)
    if isinstance(given, dict):
        unknown = sorted(set(given) - set(names))
        if unknown:
            raise ValueError(f"dynamic_shapes names inputs {unknown}; the inputs are {names}.")
        return tuple(given.get(name) for name in names)
    if isinstance(given, (list, tuple)) and len(given) == len(specs):
        return tuple(given)
    raise ValueError(
        f"dynamic_shapes must be {{axis: Dim}} (one input), or one entry per input ({names}) "
        f"in a list or a dict by name; received {given!r}."
    )


def example_args(endpoint):
    """The endpoint's example inputs as torch tensors (batch 2: torch specializes sizes 0, 1)."""
    return tuple(torch.from_numpy(x) for x in endpoint.example_inputs())


def export_artifact(format, endpoints, filepath, options):
    """Write the single endpoint in `endpoints` as `format` ("onnx" or "torch") at `filepath`."""
    if format not in FORMATS:
        raise ValueError(f"The torch backend exports {FORMATS}; received format={format!r}.")
    if len(endpoints) != 1:
        raise ValueError(
            f"format={format!r} holds one function; received {len(endpoints)} endpoints "
            f"({[e.name for e in endpoints]})."
        )
    writer = _write_onnx if format == "onnx" else _write_program
    with _quiet(options.get("verbose", False)):
        writer(endpoints[0], filepath, options)


def _write_program(endpoint, filepath, options):
    """A `torch.export` program of the endpoint saved as a `.pt2` file (dynamic batch)."""
    program = _program(endpoint, options.get("converter_kwargs") or {})
    with open(filepath, "wb") as f:  # a file object: torch warns of a name not ending in .pt2
        torch.export.save(program, f)


def _program(endpoint, converter_kwargs):
    """The endpoint traced by `torch.export` with its unknown dims dynamic (`converter_kwargs`
    go to `torch.export.export`)."""
    kwargs = dict(converter_kwargs)
    kwargs["dynamic_shapes"] = dynamic_shapes(endpoint.specs, kwargs.pop("dynamic_shapes", None))
    # Traced under no_grad rather than entering it in forward: that records a grad-mode region
    # which a program returning an input unchanged cannot load back.
    with torch.no_grad():
        return torch.export.export(ServingModule(endpoint), example_args(endpoint), **kwargs)


def _write_onnx(endpoint, filepath, options):
    """The endpoint as an ONNX model at `opset`, dims named as the specs say, weights as
    initializers (in the file itself unless they are too big for one protobuf).

    The program is traced by `torch.export` first: given a module, `torch.onnx.export` falls
    back to other capture strategies when that fails, which may fix a dynamic dim's size."""
    require("onnxscript", "onnx-torch", "ONNX export on the torch backend")
    kwargs = {
        "opset_version": options["opset"],
        "input_names": [spec.name for spec in endpoint.specs],
        "output_names": endpoint.output_names,
        "external_data": _weight_bytes(endpoint) > EXTERNAL_DATA_BYTES,
        "verbose": bool(options.get("verbose")),
    }
    kwargs.update(options.get("converter_kwargs") or {})
    try:
        onnx_program = torch.onnx.export(_program(endpoint, {}), dynamo=True, **kwargs)
    except torch.onnx.OnnxExporterError as e:
        raise RuntimeError(f"torch.onnx cannot convert the traced program: {_root_cause(e)}") from e
    _free_io_names(onnx_program.model.graph)
    _name_dims(onnx_program.model, endpoint.specs)
    onnx_program.save(filepath, external_data=kwargs["external_data"])


def _root_cause(error):
    """The first line of the innermost cause of `error`: torch's says which op has no ONNX
    translation, under several layers of generic advice."""
    while error.__cause__ is not None:
        error = error.__cause__
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _weight_bytes(endpoint):
    """The bytes the endpoint's variables take."""
    return sum(v.value.numel() * v.value.element_size() for v in endpoint.variables)


def _free_io_names(graph):
    """Rename the inner values that carry a graph input's or output's name: torch may give a
    graph output the name of the layer while the node computing it is named the same (two
    values called `conv2d`), which ONNX refuses."""
    io = {id(value) for value in list(graph.inputs) + list(graph.outputs)}
    reserved = {value.name for value in list(graph.inputs) + list(graph.outputs)}
    taken = {value.name for value in _values(graph)} | set(graph.initializers)
    for value in _values(graph):
        if value.name in reserved and id(value) not in io:
            value.name = _unique(value.name, taken)
            taken.add(value.name)


def _name_dims(model, specs):
    """Give each graph input's unknown dims the spec's readable names, and the same symbol in
    every other value that carries it (torch may name a dim `s0` or after a sanitized Dim)."""
    ir = require("onnx_ir", "onnx-torch", "ONNX export on the torch backend")
    renames = {}
    for value, spec in zip(model.graph.inputs, specs):
        for axis, name in spec.dynamic_axes().items():
            old = value.shape[axis]
            if isinstance(old, ir.SymbolicDim) and old.value is not None and old.value != name:
                renames[old.value] = name
    if not renames:
        return
    for value in _values(model.graph):
        if value.shape is not None and any(_symbol(d) in renames for d in value.shape):
            dims = [
                ir.SymbolicDim(renames[_symbol(d)]) if _symbol(d) in renames else d
                for d in value.shape
            ]
            value.shape = ir.Shape(dims)


def _symbol(dim):
    """A symbolic dim's name (None for a static dim)."""
    return getattr(dim, "value", None)


def _values(graph):
    """Every value of the graph: inputs, node outputs, graph outputs."""
    yield from graph.inputs
    for node in graph.all_nodes():
        yield from node.outputs
    yield from graph.outputs


@contextlib.contextmanager
def _quiet(verbose):
    """Silence the exporters' warnings, log lines and stderr prints (torch.export prints the
    partial graph of a failed trace there) unless `verbose`."""
    if verbose:
        yield
        return
    with quiet_loggers(QUIET_LOGGERS), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stderr(io.StringIO()):
            yield
