"""A unittest case over a small tree of files in a temporary folder: the tree tests of the
repository's own checks (layering, raw calls, format, docs) write the files a rule is about
there and run the check on it."""
import os
import tempfile
import unittest


class TempTreeCase(unittest.TestCase):
    """self.root: an empty folder for each test, removed after it; self.write(path, text)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, path, text):
        """Writes `text` to `path` under the tree, making its folders."""
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
