import unittest

from geo import dist


class DistTest(unittest.TestCase):
    def setUp(self):
        self.origin = (0, 0)

    def test_unit(self):
        self.assertAlmostEqual(dist(self.origin, (3, 4)), 5.0, places=3)

    def test_same(self):
        self.assertEqual(dist((1, 1), (1, 1)), 0)


class BrokenSetupTest(unittest.TestCase):
    def setUp(self):
        self.data = open("missing-fixture.json").read()

    def test_data(self):
        self.assertTrue(self.data)
