"""The study configs of configs/ (top of the repository), installed as this package (setup.py)."""
