"""Record Keras's structure facts for the applications' fast tests.

Runs the fast tier of `tests/applications` on the numpy backend with an empty reference cache and
the recorded facts off (TRIPOD_KERAS_FACTS=off), so that Keras builds every structure reference,
then writes the facts it wrote (parameter count, layer names, output shape of each configuration
built without weights) into `tests/applications/keras_facts.json.gz`, tagged with Keras's version.
Run it after changing the Keras pin in constraints.txt or the configurations the tests check.

Usage: python scripts/record_keras_facts.py
"""

import gzip
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
RECORDED = ROOT / "tests" / "applications" / "keras_facts.json.gz"


def main():
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TRIPOD_BACKEND": "numpy", "TRIPOD_KERAS_APPS_CACHE": cache}
        env["TRIPOD_KERAS_FACTS"] = "off"
        tests = ["-m", "not slow", "-n", "2", "tests/applications"]
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", *tests], env=env, cwd=ROOT, check=True
        )
        (versioned,) = pathlib.Path(cache).iterdir()  # tripod-keras-apps-<version>
        facts = {
            folder.name: json.loads((folder / "facts.json").read_text())
            for folder in sorted(versioned.iterdir())
            if not (folder / "model.weights.h5").exists()
        }
    keras = versioned.name.removeprefix("tripod-keras-apps-")
    payload = json.dumps({"keras": keras, "facts": facts}, sort_keys=True).encode()
    RECORDED.write_bytes(gzip.compress(payload, 9, mtime=0))
    print(f"{len(facts)} structure references of Keras {keras} -> {RECORDED.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
