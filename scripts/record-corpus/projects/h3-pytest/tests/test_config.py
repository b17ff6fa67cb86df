from config import get, merge


def test_port():
    assert get("port") != 80


def test_host():
    assert get("host") == "localhost"


def test_merge():
    assert merge({"a": 1}, {"b": 2}) == {"a": 1, "b": 3}
