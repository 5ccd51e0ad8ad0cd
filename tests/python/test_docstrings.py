import doctest

import optiq


def test_package_docstring_examples_run():
    result = doctest.testmod(optiq, verbose=False)
    assert result.attempted >= 4 and result.failed == 0
