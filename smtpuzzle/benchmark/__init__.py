"""``smtpuzzle bench``: time suites of puzzles on several back ends side by side."""

from smtpuzzle.benchmark.runner import Config, Run, Summary, configs_for, run_suites, summarise
from smtpuzzle.benchmark.suites import Entry, Suite, load_suite, repeated, suite_names

__all__ = ["Config", "Entry", "Run", "Suite", "Summary", "configs_for", "load_suite",
           "repeated", "run_suites", "suite_names", "summarise"]
