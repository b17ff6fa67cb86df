import unittest

from stack import Stack


class StackTest(unittest.TestCase):
    def test_pop_returns_last(self):
        s = Stack()
        s.push(1)
        s.push(2)
        self.assertEqual(s.pop(), 2)

    def test_size(self):
        s = Stack()
        s.push(1)
        self.assertEqual(s.size(), 1, "one item pushed")

    def test_empty_pop(self):
        s = Stack()
        with self.assertRaises(IndexError):
            s.pop()

    def test_truthy(self):
        self.assertTrue(Stack().size() == 0)

    def test_error(self):
        Stack().peek()
