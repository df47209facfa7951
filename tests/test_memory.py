"""keep_freed_memory: a freed array's pages serve the next one, with no fresh page faults."""

import subprocess
import sys

import pytest

FAULTS = """
import resource, sys
import numpy as np
from smtpuzzle.memory import keep_freed_memory
if sys.argv[1] == "kept":
    assert keep_freed_memory()
a = np.ones(2**25)  # 256 MB, past any threshold of glibc's for unmapping it when freed
del a
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
b = np.ones(2**25)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(how: str) -> int:
    out = subprocess.run([sys.executable, "-c", FAULTS, how], check=True, capture_output=True,
                         text=True)
    return int(out.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_a_process_that_keeps_freed_memory_reuses_it():
    # 256 MB fresh: at least 128 faults of 2 MB pages, 65,536 of 4 kB ones
    assert _faults("default") >= 100
    assert _faults("kept") < 20
