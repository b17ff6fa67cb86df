from app.report import title


def test_title_is_shouted():
    assert title("q3 sales") == "Q3 SALES"
