import unittest

from report import parse_money, render, totals


class RenderTest(unittest.TestCase):
    def test_render_multiline(self):
        self.assertEqual(render([("a", 1), ("b", 2)]), "a: 1\nb: 3")

    def test_money(self):
        for raw, want in [("5€", 5), ("1,5€", 15)]:
            with self.subTest(raw=raw):
                self.assertEqual(parse_money(raw), want)


class TotalsTest(unittest.TestCase):
    def test_totals(self):
        self.assertDictEqual(totals({"x": [1, 2]}), {"x": 4})

    def test_contains(self):
        self.assertIn("z", totals({"x": [1]}))

    def test_true(self):
        self.assertTrue(totals({}) , "totals of nothing should not be empty")
