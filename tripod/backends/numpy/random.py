"""The numpy backend: random ops."""
