"""`ExportArchive`: a SavedModel with the endpoints and variable collections you choose."""

from tripod.backends import active
from tripod.backends.common import tree
from tripod.export.model_export import check_format, write_artifact
from tripod.export.serving import ServingFunction
from tripod.export.signature import specs_like
from tripod.layers.layer import Layer

ops = active()


class ExportArchive:
    """Collects tracked layers, named endpoints and variable collections, then writes them as one
    TensorFlow SavedModel with `write_out` (on tensorflow, and on jax through jax2tf).

    ```python
    archive = tripod.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint("serve", lambda x: model(x, training=False),
                         input_signature=[tripod.InputSpec(shape=(None, 3), dtype="float32")])
    archive.write_out("path/to/saved_model")
    ```
    """

    def __init__(self, format="saved_model", **kwargs):
        if format not in ("saved_model", "tf_saved_model"):
            raise ValueError(f"ExportArchive writes format='saved_model'; received {format!r}.")
        if kwargs:
            raise TypeError(f"ExportArchive got unexpected arguments: {sorted(kwargs)}.")
        self._tracked = []
        self._endpoints = {}
        self._collections = {}

    @property
    def variables(self):
        """Every variable of the tracked layers, once each."""
        seen, out = set(), []
        for layer in self._tracked:
            for variable in layer.variables:
                if id(variable) not in seen:
                    seen.add(id(variable))
                    out.append(variable)
        return out

    def track(self, resource):
        """Track a built layer or model, so its variables are saved and its endpoints can read
        them."""
        if not isinstance(resource, Layer):
            raise TypeError(
                f"ExportArchive.track expects a tripod Layer or Model; received "
                f"{type(resource).__name__}."
            )
        if not resource.built:
            raise ValueError(f"Layer '{resource.name}' is not built: call it on data first.")
        self._tracked.append(resource)

    def add_endpoint(self, name, fn, input_signature=None, **kwargs):
        """Serve `fn` under `name`; `input_signature` lists one spec structure per positional
        argument of `fn` (InputSpecs, KerasTensors or arrays)."""
        if kwargs:
            raise TypeError(f"add_endpoint got unexpected arguments: {sorted(kwargs)}.")
        if name in self._endpoints:
            raise ValueError(f"Endpoint {name!r} is already in this archive.")
        if input_signature is None:
            raise ValueError(
                f"add_endpoint({name!r}): pass input_signature=, one InputSpec per argument."
            )
        if not self._tracked:
            raise ValueError("Track the layers the endpoint uses (archive.track(model)) first.")
        arguments = tuple(
            specs_like(arg, prefix=f"{name}_input") for arg in _as_arguments(input_signature)
        )
        self._endpoints[name] = ServingFunction(fn, arguments, self.variables, name=name)
        return fn

    def track_and_add_endpoint(self, name, resource, input_signature, **kwargs):
        """`track(resource)` and serve `resource(...)` (in inference mode) under `name`."""
        self.track(resource)
        return self.add_endpoint(
            name, lambda *args: resource(*args, training=False), input_signature, **kwargs
        )

    def add_variable_collection(self, name, variables):
        """Save `variables` (a list of tripod Variables) as an attribute `name` of the artifact."""
        variables = tree.flatten(variables)
        if not variables or not all(hasattr(v, "assign") for v in variables):
            raise TypeError(f"add_variable_collection({name!r}) expects a list of variables.")
        self._collections[name] = variables

    def write_out(self, filepath, options=None, verbose=True):
        """Write the SavedModel folder at `filepath` (atomically)."""
        if not self._endpoints:
            raise ValueError("This ExportArchive has no endpoints: add one with add_endpoint().")
        check_format("tf_saved_model")
        endpoints = list(self._endpoints.values())
        for endpoint in endpoints:
            endpoint.variables = self.variables
        settings = {
            "opset": None,
            "verbose": bool(verbose),
            "variable_collections": dict(self._collections),
            "converter_kwargs": {"options": options} if options is not None else {},
        }
        write_artifact("tf_saved_model", endpoints, filepath, settings, self._tracked[0])
        if verbose:
            print(f"Saved artifact at '{filepath}' with endpoints {sorted(self._endpoints)}.")


def _as_arguments(signature):
    """`input_signature` as a list with one entry per positional argument."""
    return list(signature) if isinstance(signature, (list, tuple)) else [signature]
