from shop import checkout, refund


def test_refund():
    assert refund(5) == -5
