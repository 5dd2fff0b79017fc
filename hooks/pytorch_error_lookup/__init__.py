"""The lookup of 附录A · 报错反查表 where the error happens: a terminal command
(`pytorch-error-lookup`, `python -m pytorch_error_lookup`) and an IPython/Jupyter extension
(`%load_ext pytorch_error_lookup`). Both answer from the data the site is built from, with the
same verdicts as the page's search box (rule.py)."""


def load_ipython_extension(shell):
    from .notebook import load_ipython_extension as load

    load(shell)


def unload_ipython_extension(shell):
    from .notebook import unload_ipython_extension as unload

    unload(shell)
