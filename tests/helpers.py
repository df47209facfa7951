"""Helpers shared by the tests: running the command line as a user would."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``smtpuzzle ARGS`` in a fresh interpreter; output captured as text."""
    return subprocess.run([sys.executable, "-m", "smtpuzzle", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)
