"""The attribute names a tripod SavedModel (written from tensorflow or from jax) takes for itself."""

#: attributes holding the artifact's variables and tables, and TensorFlow's own `signatures`
RESERVED = (
    "variables",
    "trainable_variables",
    "non_trainable_variables",
    "captured_variables",
    "captured_tables",
    "signatures",
)


def check_attribute_names(names, writer):
    """Endpoint and variable collection names become attributes of the loaded object: each must
    be unique and none of `RESERVED`; `writer` says which export refuses them."""
    taken = sorted({n for n in names if n in RESERVED or names.count(n) > 1})
    if taken:
        raise ValueError(
            f"{writer}: endpoint and variable collection names must be unique and not one of "
            f"{RESERVED}; received {taken}."
        )
