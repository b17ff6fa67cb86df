import unittest

from text import slug, words


class SlugTest(unittest.TestCase):
    def test_slug(self):
        self.assertEqual(slug("Hello World"), "hello-world")

    def test_words_contains(self):
        self.assertIn("b", words("a c"))


class WordsTest(unittest.TestCase):
    def test_count(self):
        self.assertEqual(len(words("a b c")), 4)
