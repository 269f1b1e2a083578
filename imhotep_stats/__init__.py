__version__ = "0.1.0"

# First, before any submodule: never run a compiled module built from an older source.
from imhotep_stats import _accel  # noqa: E402

_accel.install()
