"""Build of the optional C core of the solver (issue 8); everything else is in pyproject.toml.

``optional=True``: an install without a C compiler still succeeds, and
``games.engine.solver`` then uses its pure-Python search.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.engine._solver",
            ["games/engine/_solver.c"],
            optional=True,
            extra_compile_args=["-O3"],
        )
    ]
)
