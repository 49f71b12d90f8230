"""Artifacts from the jax backend: ONNX through jax2onnx, TF SavedModel through jax2tf.

Both converters trace `ServingFunction.stateless`, a pure function of the variable values and
the flat inputs. ONNX closes over the values (they become initializers); the SavedModel passes
`tf.Variable`s in, so the variables stay variables in the artifact.
"""

import importlib.util
import re

import jax
import jax.numpy as jnp
import numpy as np

from tripod.backends.common import tree
from tripod.backends.common.optional import require
from tripod.backends.common.quiet import quiet_loggers
from tripod.backends.common.saved_model_names import check_attribute_names

#: loggers the converters write progress to; quiet unless `verbose`
_CONVERTER_LOGGERS = ("jax2onnx", "onnx_ir", "absl", "tensorflow")


def export_formats():
    """ONNX always; a SavedModel too when TensorFlow is installed (jax2tf emits TF graphs)."""
    if importlib.util.find_spec("tensorflow") is None:
        return ("onnx",)
    return ("onnx", "tf_saved_model")


def export_artifact(format, endpoints, filepath, options):
    """Write `endpoints` as `format` at `filepath`; a clear error for formats jax cannot write."""
    writers = {"onnx": _write_onnx, "tf_saved_model": _write_saved_model}
    if format not in export_formats():
        raise ValueError(
            f"The jax backend cannot export format={format!r}: it writes {export_formats()}"
            + ("" if format != "tf_saved_model" else " (tf_saved_model needs tensorflow).")
        )
    with quiet_loggers(_CONVERTER_LOGGERS, options.get("verbose", False)):
        writers[format](endpoints, str(filepath), options)


def _symbol(spec, axis):
    """A jax symbolic-dimension name for unknown dim `axis` of `spec` (an identifier)."""
    if axis == 0:
        return "batch"
    return "d_" + re.sub(r"\W", "_", spec.name) + f"_{axis}"


def _symbolic_shape(spec):
    """`spec.shape` with each unknown dim as its symbol (shared "batch" for axis 0)."""
    return tuple(_symbol(spec, axis) if d is None else d for axis, d in enumerate(spec.shape))


def _single(endpoints, format):
    """The one endpoint of a single-function format; an error naming the format otherwise."""
    if len(endpoints) != 1:
        raise ValueError(f"format={format!r} holds one function; received {len(endpoints)}.")
    return endpoints[0]


# --- ONNX ----------------------------------------------------------------------------------


def _write_onnx(endpoints, filepath, options):
    """Trace the endpoint with jax2onnx (weights as initializers), rename its inputs, outputs
    and unknown dims to the spec names, and save it."""
    endpoint = _single(endpoints, "onnx")
    to_onnx = require("jax2onnx", "onnx-jax", "ONNX export from jax").to_onnx
    onnx = require("onnx", "onnx-jax", "ONNX export from jax")
    values = [jnp.asarray(v.value) for v in endpoint.variables]

    def serve(*flat):
        """The endpoint with its variables' current values baked in."""
        return _distinct(endpoint.stateless(values, *flat), flat)

    inputs = [jax.ShapeDtypeStruct(_symbolic_shape(s), np.dtype(s.dtype)) for s in endpoint.specs]
    kwargs = {
        "model_name": endpoint.name,
        "input_names": [spec.name for spec in endpoint.specs],
        "output_names": endpoint.output_names,
        **options.get("converter_kwargs", {}),
    }
    model = to_onnx(serve, inputs=inputs, opset=options["opset"], **kwargs)
    _name_dims(model, endpoint.specs)
    onnx.checker.check_model(model)
    onnx.save(model, filepath)


def _distinct(outputs, inputs):
    """`outputs` with each one that is an input, or repeats an earlier output, copied: an ONNX
    graph names every value once (an inference-time identity layer returns its input)."""
    seen = {id(x) for x in inputs}
    distinct = []
    for output in outputs:
        distinct.append(jnp.copy(output) if id(output) in seen else output)
        seen.add(id(distinct[-1]))
    return tuple(distinct)


def _name_dims(model, specs):
    """Rename the traced symbols in every dim_param to the specs' `dynamic_axes()` names."""
    names = {
        _symbol(spec, axis): name for spec in specs for axis, name in spec.dynamic_axes().items()
    }
    graph = model.graph
    for value in list(graph.input) + list(graph.output) + list(graph.value_info):
        for dim in value.type.tensor_type.shape.dim:
            if dim.HasField("dim_param"):
                dim.dim_param = _rename_symbols(dim.dim_param, names)


def _rename_symbols(expression, names):
    """`expression` (a symbol or an expression of symbols) with each symbol renamed."""
    return re.sub(r"[A-Za-z_]\w*", lambda m: names.get(m.group(0), m.group(0)), expression)


# --- TF SavedModel -------------------------------------------------------------------------


def _write_saved_model(endpoints, filepath, options):
    """Each endpoint converted with jax2tf over `tf.Variable`s an archive tracks, saved with a
    serving signature per endpoint (the first also as "serving_default"). The converter kwarg
    `options` goes to `tf.saved_model.save`, the others to `jax2tf.convert`."""
    tf = require("tensorflow", "tensorflow", "SavedModel export from jax")
    jax2tf = require("jax.experimental.jax2tf", "tensorflow", "SavedModel export from jax")

    collections = options.get("variable_collections", {})
    names = [endpoint.name for endpoint in endpoints] + list(collections)
    check_attribute_names(names, "SavedModel export from jax")
    convert_kwargs = dict(options.get("converter_kwargs", {}))
    save_kwargs = {"options": convert_kwargs.pop("options")} if "options" in convert_kwargs else {}
    archive = tf.__internal__.tracking.AutoTrackable()
    natives = _TFVariables(tf)
    signatures = {}
    for endpoint in endpoints:
        tf_vars = [natives.get(v) for v in endpoint.variables]
        function = _endpoint_function(tf, jax2tf, endpoint, tf_vars, convert_kwargs)
        setattr(archive, endpoint.name, function)
        signatures[endpoint.name] = _signature(tf, endpoint, function)
    signatures.setdefault("serving_default", signatures[endpoints[0].name])
    served = natives.all()
    archive.variables = served
    archive.trainable_variables = [v for v in served if v.trainable]
    archive.non_trainable_variables = [v for v in served if not v.trainable]
    for name, variables in collections.items():
        setattr(archive, name, [natives.get(v) for v in variables])
    tf.saved_model.save(archive, filepath, signatures=signatures, **save_kwargs)


class _TFVariables:
    """One `tf.Variable` per tripod variable, made on first use (endpoints share them)."""

    def __init__(self, tf):
        self._tf = tf
        self._made = {}

    def get(self, variable):
        """The tf.Variable holding `variable`'s current value."""
        key = id(variable)
        if key not in self._made:
            name = re.sub(r"[^\w.-]", "_", variable.path or variable.name)
            value = np.asarray(variable.value)
            self._made[key] = self._tf.Variable(value, trainable=variable.trainable, name=name)
        return self._made[key]

    def all(self):
        """Every tf.Variable made, in order of first use."""
        return list(self._made.values())


def _endpoint_function(tf, jax2tf, endpoint, tf_vars, convert_kwargs):
    """A `tf.function` with the endpoint's structured input signature, running the jax2tf
    conversion of `endpoint.stateless` on the tracked variables."""
    shapes = [None] + ["(" + ", ".join(map(str, _symbolic_shape(s))) + ")" for s in endpoint.specs]
    converted = jax2tf.convert(
        lambda values, *flat: tuple(endpoint.stateless(values, *flat)),
        polymorphic_shapes=shapes,
        **convert_kwargs,
    )
    signature = tree.map_structure(
        lambda s: tf.TensorSpec(s.shape, s.dtype, name=s.name), endpoint.input_structure
    )

    def call(*args):
        """The endpoint on structured inputs, returning its structured outputs."""
        return endpoint.pack_outputs(list(converted(list(tf_vars), *tree.flatten(args))))

    return tf.function(call, input_signature=list(signature), autograph=False)


def _signature(tf, endpoint, function):
    """A concrete serving function: flat inputs named after the specs, a dict of named outputs."""
    specs = [tf.TensorSpec(s.shape, s.dtype, name=s.name) for s in endpoint.specs]

    def serve(*flat):
        """Flat named inputs in, {output name: tensor} out."""
        outputs = tree.flatten(function(*endpoint.pack_inputs(list(flat))))
        return dict(zip(endpoint.output_names, outputs))

    return tf.function(serve, input_signature=specs, autograph=False).get_concrete_function()
