"""The torch backend: random ops."""
