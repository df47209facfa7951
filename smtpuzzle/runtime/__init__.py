"""What every layer uses at run time: argument checks and deadlines (checks), files read
and written (files), memory estimates (memory), solver child processes and Ctrl-C
(child, build_alarm), and pools of worker processes, local or on Ray (taskpool)."""
