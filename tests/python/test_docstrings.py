import doctest
import importlib

import pytest

import optiq


def test_package_docstring_examples_run():
    result = doctest.testmod(optiq, verbose=False)
    assert result.attempted >= 4 and result.failed == 0


@pytest.mark.parametrize("name", ["argtypes", "metrics", "plots", "textfile", "workload", "simulation.platform"])
def test_module_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(f"optiq.{name}"), verbose=False)
    assert result.attempted >= 1 and result.failed == 0
