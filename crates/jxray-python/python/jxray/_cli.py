"""The ``jxray`` console script: the Rust command line, run in this process.

It behaves as the ``jxray`` binary does (the TUI included): the arguments go to the same
entry point, output goes straight to the process's standard output and error (not through
``sys.stdout``), and the exit status is the command's.
"""

from __future__ import annotations

import signal
import sys
from typing import NoReturn, Optional, Sequence

from jxray import _jxray


def main(argv: Optional[Sequence[str]] = None) -> NoReturn:
    """Run ``jxray`` with ``argv`` (default: ``sys.argv[1:]``) and exit with its status."""
    args = list(sys.argv[1:] if argv is None else argv)
    # Whatever Python printed before must come out before the command's own output.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    # The binary starts with the default SIGINT action; Python's handler would only set a
    # flag while the command runs, and raise KeyboardInterrupt after it has ended.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_jxray.main(["jxray", *args]))
