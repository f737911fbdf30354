"""What the scripts under scripts/ that start servers or measure share: a free port on
127.0.0.1, and one line naming the machine a measurement ran on. Stdlib only."""

import os
import platform
import socket


def free_port():
    """A TCP port nothing listens on now, on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def machine():
    """`2 cores, AMD EPYC, Linux 6.1, Python 3.11.7`: where a measurement ran."""
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}, {platform.system()} {platform.release()}, Python {platform.python_version()}"
