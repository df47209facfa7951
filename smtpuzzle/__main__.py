"""``python -m smtpuzzle`` runs the command line."""

from smtpuzzle.cli import main

main()
