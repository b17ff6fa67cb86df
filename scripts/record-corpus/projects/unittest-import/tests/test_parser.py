import unittest

from parser_utils import parse_line


class ParserTest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(parse_line("a=1"), ("a", "1"))
