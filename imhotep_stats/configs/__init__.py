"""The example study configs (``init``); configs/ at the top of the repository links here."""
