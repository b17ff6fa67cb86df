import pytest

from inventory import label, lines, ratio, restock


@pytest.mark.parametrize("name,want", [("café", "CAFE"), ("straße", "STRASE"), ("ǆ", "Ǆ")])
def test_label(name, want):
    assert label(name) == want


class TestRestock:
    def test_adds(self):
        got = restock({"apple": 1}, "pear", 2)
        assert got == {"apple": 1, "pear": 3}

    def test_message(self):
        got = restock({}, "fig", 1)
        assert got["fig"] == 2, "fig should be doubled"


def test_lines():
    text = "alpha\nbeta\ngamma"
    assert lines(text) == ["alpha", "beta", "gamma", "delta"]


def test_ratio_zero():
    with pytest.raises(ValueError):
        ratio(1, 0)


def test_in():
    assert "kiwi" in ["apple", "pear"]
