"""Saving: the registry of serializable classes, object configs and the checkpoint format."""
