"""The tensorflow backend: random ops."""
