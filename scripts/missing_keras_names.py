"""Print, as Markdown grouped by namespace, the Keras 3 public names that tripod lacks.

Reads the Keras 3 API list (`../shared/keras3_api.txt` relative to the repository unless a path
is given) with the same parser the API-coverage tests use, and looks each name up in the
matching tripod namespace (`keras.layers` -> `tripod.layers`, ...).

Usage: python scripts/missing_keras_names.py [path/to/keras3_api.txt]
"""

import argparse
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

import tripod
from tests.api import keras_api

DEFAULT_API_FILE = os.path.join(REPO, "..", "shared", "keras3_api.txt")
TOP_LEVEL = "keras (top level)"


def namespaces(api_file):
    """The `## keras...` section titles of the API file, in order."""
    with open(api_file) as f:
        return [line[3:].strip() for line in f if line.startswith("## ")]


def section_names(api_file, section):
    """Every public name of one section: the signatures `keras_api.section` parses, plus the
    `def name(...)`, `module name: ...` and `name  [namespace]` lines it leaves out."""
    names = set(keras_api.section(section))
    current = None
    with open(api_file) as f:
        for line in f:
            if line.startswith("## "):
                current = line[3:].strip()
            elif current == section:
                match = re.match(r"(?:def|module) (\w+)|(\w+)\s+\[namespace\]", line)
                if match:
                    names.add(match.group(1) or match.group(2))
    return names


def tripod_namespace(section):
    """The tripod module for a Keras section title, or None when tripod has no such namespace."""
    module = tripod
    if section == TOP_LEVEL:
        return module
    for part in section.split(".")[1:]:
        module = getattr(module, part, None)
        if module is None:
            return None
    return module


def missing_names(api_file):
    """{section: sorted Keras names absent from tripod}; a section's value is None when the whole
    namespace is absent."""
    keras_api.API_FILE = api_file
    missing = {}
    for section in namespaces(api_file):
        names = section_names(api_file, section)
        module = tripod_namespace(section)
        if module is None:
            missing[section] = None
        else:
            absent = sorted(name for name in names if not hasattr(module, name))
            if absent:
                missing[section] = absent
    return missing


def markdown(missing, api_file):
    """The Markdown list for docs/differences.md."""
    total = sum(len(section_names(api_file, s)) for s in namespaces(api_file))
    absent = sum(
        len(section_names(api_file, s)) if names is None else len(names)
        for s, names in missing.items()
    )
    lines = [
        f"{absent} of the {total} Keras 3.15 public names listed in `keras3_api.txt` are not in tripod yet.",
        "",
    ]
    for section, names in missing.items():
        title = "`keras`" if section == TOP_LEVEL else f"`{section}`"
        if names is None:
            lines.append(
                f"- {title}: the whole namespace ({len(section_names(api_file, section))} names)"
            )
        else:
            lines.append(f"- {title} ({len(names)}): " + ", ".join(f"`{name}`" for name in names))
    return "\n".join(lines)


def main(argv=None):
    """Parse the optional path, print the Markdown list."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "api_file", nargs="?", default=DEFAULT_API_FILE, help="the Keras 3 API list"
    )
    api_file = parser.parse_args(argv).api_file
    print(markdown(missing_names(api_file), api_file))


if __name__ == "__main__":
    main()
