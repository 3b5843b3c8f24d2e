"""Reading a cloudburst run's own log (shared by the validation scripts)."""
import os
import re


def run_seconds(outdir):
    """Wall time of the time loop, from run.log's 'finished: ... steps in X s' line."""
    try:
        with open(os.path.join(outdir, "run.log")) as f:
            match = re.search(r"steps in ([0-9.eE+-]+) s", f.read())
        return float(match.group(1)) if match else float("nan")
    except (OSError, TypeError):
        return float("nan")
