"""gigflow: harvest job vacancies into clean Markdown and structured, evidenced job records."""

__version__ = "0.1.0"

import warnings as _warnings

# platformdirs (via pgserver's lock files) warns when XDG_RUNTIME_DIR is unset, as in containers and CI.
_warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
