"""`python -m pytorch_error_lookup`: the same as the `pytorch-error-lookup` command."""

from .cli import main

raise SystemExit(main())
