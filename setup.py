"""Build step beyond pyproject.toml: the terminal and notebook lookup carries its data.

`pytorch_error_lookup/packaged_data.py` is produced from data/ by the site's own pipeline
(`refsite.lookup_data`) while the package is built, so no second copy is ever kept by hand. In a
source checkout (an editable install) the lookup builds the same data from data/ when it runs.
"""

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithLookupData(build_py):
    def run(self):
        if self.editable_mode:  # a source checkout builds the data from data/ as it runs
            super().run()
            return
        # pip builds in the checkout's build/: a file an earlier build left there (one since
        # removed from the source) would be shipped again.
        shutil.rmtree(self.build_lib, ignore_errors=True)
        super().run()
        sys.path.insert(0, str(HERE / "hooks"))
        from refsite.lookup_data import write_lookup_data

        # A module, not JSON: pip compiles it, and the command's start loads the .pyc (lookup.load_data).
        target = Path(self.build_lib) / "pytorch_error_lookup" / "packaged_data.py"
        write_lookup_data(HERE / "data", target)


setup(cmdclass={"build_py": BuildWithLookupData})
