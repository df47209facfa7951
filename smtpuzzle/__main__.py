"""``python -m smtpuzzle`` runs the command line."""

from smtpuzzle.cli import main

try:
    main()
finally:
    # CPython notes a KeyboardInterrupt raised inside any string exec (dataclasses and
    # namedtuples make their methods so) as unhandled even when it was caught, and under
    # ``-m`` then ends the process by the signal, after our exit code and message. Each
    # string exec clears that note first.
    exec("None")
