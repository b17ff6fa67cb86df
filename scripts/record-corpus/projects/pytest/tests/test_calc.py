import pytest

from calc import add, div, words, save


def test_add():
    assert add(2, 3) == 5


def test_passes():
    assert add(0, 0) == 1


def test_div_message():
    result = div(7, 2)
    assert result == 3.5, "division should be exact"


@pytest.mark.parametrize("a,b,expected", [(1, 1, 2), (2, 2, 4)])
def test_add_many(a, b, expected):
    assert add(a, b) == expected


def test_words():
    assert words("a  b") == ["a", "b"]


def test_save_refuses_root():
    with pytest.raises(PermissionError):
        save("/root/x")


def test_raises_error():
    raise AssertionError("config missing key 'port'")
