"""The maze family's research tools: lower bounds on the length of a universal string.

``prove.py`` proves "no string of length L solves every case" by decision diagrams, split
into cubes and searched by workers; ``resume.py`` saves such searches and takes them up;
``proof.py`` and ``certificate.py`` turn a proof into a clausal certificate and check it;
``shorten.py`` rewrites a string's windows one move shorter. The maze family itself (its
cases, checker and searches) is the package above; nothing there needs this one, but for
the split search's checkpoints (``resume.py``).
"""
