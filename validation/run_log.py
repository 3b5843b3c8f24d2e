"""Reading a cloudburst run's own log (shared by the validation scripts)."""
import os
import re


def run_seconds(outdir):
    """Wall time of the time loop, from run.log's 'finished: ... steps in X s' lines
    (summed over the segments of a restarted run)."""
    try:
        with open(os.path.join(outdir, "run.log")) as f:
            times = re.findall(r"steps in ([0-9.eE+-]+) s", f.read())
        return sum(float(t) for t in times) if times else float("nan")
    except (OSError, TypeError):
        return float("nan")
