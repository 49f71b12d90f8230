"""On an accelerator, the selected parity cases' programs compile ahead, on all the host's cores."""

from tests import accelerator
from tests.backends.ops import harness
from tests.backends.ops.cases import Case


def pytest_collection_finish(session):
    """Hand the selected cases' calls to `accelerator.precompile` (nothing on a CPU)."""
    if not accelerator.COMPILE_CALLS:
        return
    params = (getattr(item, "callspec", None) for item in session.items)
    cases = [p.params["c"] for p in params if p and isinstance(p.params.get("c"), Case)]
    accelerator.precompile(
        c.call_on(harness.BACKEND) for c in cases if c.compiles_whole(harness.BACKEND)
    )
