"""The one build step pyproject.toml cannot declare: ship the game data and the docs pages.

The data tables stay where the project documents them, in `seeds/<game>/` at the top of the
repository (rules summaries beside them). A wheel, or a plain `pip install .`, copies that
folder into the built package as `referee/seeds/`, where `referee.core.seeds` finds it with
importlib.resources; an editable install reads `seeds/` in the checkout instead. The docs pages
(README.md and docs/*.md), which the service serves at /docs, go in as `referee/docs/` alike.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
SEEDS = HERE / "seeds"
PROTOCOL_README = HERE / "clients" / "protocol" / "README.md"


class BuildWithSeeds(build_py):
    """build_py, then the game data into the build as referee/seeds/ (and the bot protocol's
    page as arena/protocol_files/README.md)."""

    def run(self):
        """Build the packages, then copy seeds/ beside them (JSON tables and rules.md)."""
        super().run()
        target = Path(self.build_lib) / "referee" / "seeds"
        shutil.copytree(SEEDS, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.py[cod]"))
        docs = Path(self.build_lib) / "referee" / "docs"
        shutil.copytree(HERE / "docs", docs, dirs_exist_ok=True)
        shutil.copy2(HERE / "README.md", docs / "README.md")
        # the bot protocol's page (/bot-protocol/readme) is rendered from this file
        protocol = Path(self.build_lib) / "arena" / "protocol_files"
        protocol.mkdir(parents=True, exist_ok=True)
        shutil.copy(PROTOCOL_README, protocol / "README.md")
        shutil.copytree(PROTOCOL_README.parent / "examples", protocol / "examples",
                        dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithSeeds})
