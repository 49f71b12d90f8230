"""Reading `../shared/keras3_api.txt`: the Keras 3.15 names and signatures tripod provides."""

import os
import re

API_FILE = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "keras3_api.txt"
)


def available():
    return os.path.exists(API_FILE)


def section(name):
    """{public name: signature text} of one `## keras.<...>` section."""
    entries, current = {}, None
    with open(API_FILE) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                current = line[3:]
                continue
            if current != name or not line.strip() or line.startswith("#") or "[namespace]" in line:
                continue
            match = re.match(r"(?:class )?(\w+)\((.*)\)$", line)
            if match:
                entries[match.group(1)] = match.group(2)
    return entries


def parameters(signature_text):
    """[(name, default text or None)] from a signature like `x, axis=None, *args, **kwargs`."""
    params = []
    depth, current = 0, ""
    for char in signature_text + ",":
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if char == "," and depth == 0:
            part = current.strip()
            if part and part != "*":
                name, _, default = part.partition("=")
                params.append((name.strip(), default.strip() or None))
            current = ""
        else:
            current += char
    return params
