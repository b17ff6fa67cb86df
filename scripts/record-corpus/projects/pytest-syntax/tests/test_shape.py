from shape import area

def test_area():
    assert area(2, 3) == 6
