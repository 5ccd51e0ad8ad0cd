import os
import subprocess
import sys
from pathlib import Path

import pytest

OPTIQ = Path(sys.executable).parent / "optiq"


@pytest.fixture(scope="session")
def optiq_cli():
    """Run the installed ``optiq`` console script; returns the CompletedProcess."""
    assert OPTIQ.exists(), f"console script missing: {OPTIQ}"

    def run(*args, check=True, cwd=None):
        proc = subprocess.run([str(OPTIQ), *map(str, args)], capture_output=True, text=True, timeout=300,
                              cwd=cwd, stdin=subprocess.DEVNULL, env={**os.environ, "MPLBACKEND": "Agg"})
        if check and proc.returncode != 0:
            raise AssertionError(f"optiq {' '.join(map(str, args))} failed ({proc.returncode}):\n{proc.stderr}")
        return proc

    return run
