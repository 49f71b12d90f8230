"""The tensorflow backend's exporters: a SavedModel (`tf.saved_model.save`) and ONNX (tf2onnx).

Both start from `tf.function`s over an endpoint (`tripod.export.serving.ServingFunction`): the
SavedModel keeps the endpoint's own argument and output structure (and flat, named serving
signatures); ONNX converts a flat function and then names the graph's inputs, outputs and dynamic
dims after the endpoint's specs.
"""

import tensorflow as tf

from tripod.backends.common import optional, tree
from tripod.backends.common.quiet import quiet_loggers
from tripod.backends.common.saved_model_names import check_attribute_names
from tripod.backends.tensorflow import text

FORMATS = ("onnx", "tf_saved_model")
#: loggers the writers talk through; quiet unless `verbose`
_CONVERTER_LOGGERS = ("tensorflow", "tf2onnx")


def export_formats():
    """The formats `export_artifact` writes on this backend."""
    return FORMATS


def export_artifact(format, endpoints, filepath, options):
    """Write `endpoints` at `filepath` as `format` ("tf_saved_model" or "onnx")."""
    if format == "tf_saved_model":
        return write_saved_model(endpoints, filepath, options)
    if format == "onnx":
        if len(endpoints) != 1:
            raise ValueError(
                f"ONNX export writes exactly one endpoint; received {len(endpoints)} "
                f"({[e.name for e in endpoints]})."
            )
        return write_onnx(endpoints[0], filepath, options)
    raise ValueError(
        f"The tensorflow backend exports the formats {FORMATS}; received format={format!r}."
    )


# -- tf.functions over an endpoint ---------------------------------------------------------------
def _tf_spec(spec):
    """A `tripod.export.serving.TensorSpec` as a `tf.TensorSpec` of the same name."""
    return tf.TensorSpec(spec.shape, tf.as_dtype(spec.dtype), name=spec.name)


def structured_function(endpoint):
    """A `tf.function` taking the endpoint's positional arguments (dicts stay dicts) and
    returning its own output structure: what `tf.saved_model.load(path).<name>(...)` calls."""
    signature = [tree.map_structure(_tf_spec, arg) for arg in endpoint.input_structure]

    def call(*args):
        return endpoint.pack_outputs(endpoint(*tree.flatten(list(args))))

    return tf.function(call, input_signature=signature, autograph=False)


def flat_function(endpoint):
    """A `tf.function` of the endpoint's flat, named inputs returning its flat outputs as a
    list, in the order of `output_names` (what tf2onnx converts)."""
    specs = [_tf_spec(spec) for spec in endpoint.specs]
    return tf.function(lambda *flat: list(endpoint(*flat)), input_signature=specs, autograph=False)


def signature_function(endpoint):
    """A `tf.function` of the endpoint's flat, named inputs returning {output_name: tensor}:
    the endpoint's serving signature."""
    names = endpoint.output_names

    def call(*flat):
        return dict(zip(names, endpoint(*flat)))

    specs = [_tf_spec(spec) for spec in endpoint.specs]
    return tf.function(call, input_signature=specs, autograph=False)


# -- SavedModel ----------------------------------------------------------------------------------
def write_saved_model(endpoints, filepath, options):
    """Save every endpoint (an attribute and a serving signature named after it; the first is
    also `serving_default`) with its variables, and each variable collection as a list of
    `tf.Variable`s under its name; `converter_kwargs` go to `tf.saved_model.save` (`options`)."""
    names = [e.name for e in endpoints] + list(options.get("variable_collections", {}))
    check_attribute_names(names, "SavedModel export")
    root = tf.__internal__.tracking.AutoTrackable()
    variables = _unique(v for endpoint in endpoints for v in endpoint.variables)
    root.variables = [v.native for v in variables]
    root.trainable_variables = [v.native for v in variables if v.trainable]
    root.non_trainable_variables = [v.native for v in variables if not v.trainable]
    for name, collection in options.get("variable_collections", {}).items():
        setattr(root, name, [v.native for v in collection])
    signatures = {}
    for endpoint in endpoints:
        setattr(root, endpoint.name, structured_function(endpoint))
        signatures[endpoint.name] = signature_function(endpoint).get_concrete_function()
    signatures.setdefault("serving_default", signatures[endpoints[0].name])
    root.captured_variables, root.captured_tables = _captured(
        root, signatures.values(), root.variables
    )
    with quiet_loggers(_CONVERTER_LOGGERS, options.get("verbose")):
        tf.saved_model.save(
            root, str(filepath), signatures=signatures, **options.get("converter_kwargs", {})
        )


def _captured(root, signatures, tracked):
    """(`tf.Variable`s, lookup tables) the functions read that are no model weight (a data
    layer's constants, a vocabulary): the SavedModel must track them too, or saving refuses
    the functions."""
    known = {id(v) for v in tracked}
    functions = [
        getattr(root, name)
        for name in dir(root)
        if isinstance(getattr(root, name, None), tf.types.experimental.GenericFunction)
    ]
    concrete = list(signatures) + [f.get_concrete_function() for f in functions]
    found = {id(v): v for c in concrete for v in c.variables if id(v) not in known}
    handles = {id(t) for c in concrete for t in c.captured_inputs}
    tables = [t for t in list(text.TABLES) if id(t.resource_handle) in handles]
    return list(found.values()), tables


def _unique(variables):
    """The variables in first-seen order, each once."""
    return list({id(v): v for v in variables}.values())


# -- ONNX ----------------------------------------------------------------------------------------
def write_onnx(endpoint, filepath, options):
    """Convert the endpoint's flat function with tf2onnx at exactly `options["opset"]`, then name
    its inputs, outputs and unknown dims after the endpoint and write the file."""
    tf2onnx = optional.require("tf2onnx", "onnx-tensorflow", "ONNX export from tensorflow")
    onnx = optional.require("onnx", "onnx-tensorflow", "ONNX export from tensorflow")
    function = flat_function(endpoint)
    specs = [_tf_spec(spec) for spec in endpoint.specs]
    with quiet_loggers(_CONVERTER_LOGGERS, options.get("verbose")):
        proto, _ = tf2onnx.convert.from_function(
            function,
            input_signature=specs,
            opset=options["opset"],
            **options.get("converter_kwargs", {}),
        )
    _rename_io(proto, endpoint)
    onnx.checker.check_model(proto)
    onnx.save(proto, str(filepath))


def _rename_io(proto, endpoint):
    """Graph inputs named like `endpoint.specs` (tf2onnx appends ":0"), outputs named
    `endpoint.output_names`, and every unknown dim named: an input's as `dynamic_axes()` says,
    an output's "batch" on axis 0, else "<output name>_<axis>"."""
    graph = proto.graph
    inputs = {value.name: spec.name for value, spec in zip(graph.input, endpoint.specs)}
    outputs = dict(zip([value.name for value in graph.output], endpoint.output_names))
    renames = {**inputs, **outputs}
    for node in graph.node:
        node.input[:] = [renames.get(name, name) for name in node.input]
        node.output[:] = [renames.get(name, name) for name in node.output]
    for value, spec in zip(graph.input, endpoint.specs):
        value.name = spec.name
        _name_dims(value, spec.dynamic_axes())
    for value, name, spec in zip(graph.output, endpoint.output_names, endpoint.output_specs()):
        value.name = name
        unknown = [axis for axis, d in enumerate(spec.shape) if d is None]
        _name_dims(value, {a: "batch" if a == 0 else f"{name}_{a}" for a in unknown})


def _name_dims(value, names):
    """Set the dim_param of each listed axis of a graph input or output (`names`: axis -> name)."""
    dims = value.type.tensor_type.shape.dim
    for axis, name in names.items():
        if axis < len(dims):
            dims[axis].dim_param = name
