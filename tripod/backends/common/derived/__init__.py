"""Ops written once over the other ops of a backend, for every backend that has no native one.

Each function here takes the assembled backend (`ops`) as its first argument, followed by the
contract signature of the op it implements.
"""

OPS = {}
