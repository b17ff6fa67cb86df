import pytest

from inventory import Inventory


@pytest.fixture
def inv():
    i = Inventory()
    i.add("apple", 3)
    i.add("pear", 2)
    return i


@pytest.fixture
def broken():
    raise RuntimeError("database not reachable")


class TestInventory:
    def test_total(self, inv):
        assert inv.total() == 5

    def test_price(self, inv):
        assert inv.price("apple") == 0.3

    def test_report(self, inv):
        assert inv.report() == {"count": 2, "names": ["apple", "banana"]}

    def test_with_broken(self, broken):
        assert broken


@pytest.mark.parametrize("name", ["apple", "kiwi"])
def test_known(inv, name):
    assert name in inv.items, f"{name} should be stocked"
