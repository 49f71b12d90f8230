"""The torch backend: nn ops."""
