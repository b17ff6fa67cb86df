import pytest

from greet import greeting, lines


class TestGreeting:
    def test_english(self):
        assert greeting("Ann") == "Hello Ann!"

    @pytest.mark.parametrize("lang,expected", [("fr", "Bonjour Ann !"), ("de", "Hallo Ann!")])
    def test_other(self, lang, expected):
        assert greeting("Ann", lang) == expected


def test_lines():
    assert lines(2) == "line 0\nline 2"


def test_explicit_fail():
    pytest.fail("not implemented: greeting for 'es'")
