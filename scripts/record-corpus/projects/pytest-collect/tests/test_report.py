from report import summarize


def test_summarize():
    assert summarize([1, 2]) == "2 items"
