__version__ = "0.1.0"

# First, before any submodule: IMHOTEP_PURE=1, or a source checkout whose compiled modules are
# older than their sources, runs pure Python (imhotep_stats/sim/compiled.py).
from imhotep_stats.sim import compiled  # noqa: E402

compiled.install()
