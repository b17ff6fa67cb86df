import unittest

from users import find, names


class UsersTest(unittest.TestCase):
    def test_names(self):
        self.assertListEqual(names([{"name": "b"}, {"name": "a"}]), ["b", "a"])

    def test_find_missing(self):
        self.assertIsNone(find([], "x"))
