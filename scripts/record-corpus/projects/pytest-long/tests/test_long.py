import pytest


@pytest.mark.parametrize("i", range(60))
def test_row(i):
    for n in range(40):
        print(f"row {i} step {n}: " + "x" * 40)
    assert i * 2 == i + i + 1
