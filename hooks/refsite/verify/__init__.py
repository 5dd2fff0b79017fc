"""Check that every row of 附录A still happens: run its reproducer, compare what torch says.

    python -m refsite.verify [--python PATH] [--out FILE | --release] [--compare OTHER.yml]
                             [--only ID …] [--allow-failures]

Each program in data/pytorch/reproducers.yml runs as `<id>.py` in an empty directory, in its own
process under the Python given (the one with the torch to check), two at a time, each with a
timeout. Its output (stdout and stderr, interleaved) must contain the row's `fragment` and
`second_line` and every `expect` text. In those, `…` stands for any text and `xxx` / `Xxx` for a
name of the reader's own (`argparse.Namespace`, `ScaleBackward`); when the text only matches
with runs of whitespace treated alike (a message wrapped over lines), the status says so. A run
that stops on an API the release does not have yet (`torch.export` on 2.0) is recorded as
`api-missing`, with what is missing: never as the row's failure, never skipped.

The results go to a YAML file the site build reads, so the build never needs torch:
data/pytorch/verification.yml for the reference run (the stamps), and with `--release`
data/pytorch/verification-<release>.yml for the release matrix. Stdlib and PyYAML only; torch
is never imported here.

Parts: `cases` (the rows to check, from the validated site: refsite.pipeline), `judging` (what
a run's output says about a row), `runner` (running the programs), `results` (the results
file), `cli` (this command line).
"""
