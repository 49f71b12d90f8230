"""Run a `torch.export` program saved as `.pt2`, for `tripod/export/serve_artifact.py`.

Loaded by file path in a process without tripod: it imports nothing from tripod.
"""

import torch


def program_runner(path, job):
    """A function calling the program saved at `path` on a list of arrays (`job` unused: a
    program's inputs are positional)."""
    del job
    module = torch.export.load(path).module()

    def run(arrays):
        with torch.no_grad():
            outputs = module(*[torch.from_numpy(a) for a in arrays])
        outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
        return [o.detach().numpy() for o in outputs]

    return run
