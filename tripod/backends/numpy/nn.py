"""The numpy backend: nn ops."""
