"""numpy's generalized-ufunc signatures (`"(n),(n)->()"`), for backends that write `vectorize`."""

import re

_ARGUMENT = r"\([\w,]*\)"
_ARGUMENTS = re.compile(rf"^{_ARGUMENT}(,{_ARGUMENT})*$")


def core_dims(signature):
    """The number of core dimensions of each input of `signature`, e.g. `[1, 1]` for "(n),(n)->()"."""
    parts = signature.replace(" ", "").split("->")
    if len(parts) != 2 or not _ARGUMENTS.match(parts[0]) or not _ARGUMENTS.match(parts[1]):
        raise ValueError(f"not a valid vectorize signature: {signature!r}.")
    return [
        len([name for name in dims.split(",") if name])
        for dims in re.findall(r"\(([\w,]*)\)", parts[0])
    ]
